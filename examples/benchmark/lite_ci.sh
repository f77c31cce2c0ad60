#!/bin/sh
# A CI check written for MindSpore Lite's benchmark tool: the model's
# accuracy against a calibration file, its per-op time profile and its
# latency. With refinfer only the command changes:
#
#   BENCHMARK="refinfer benchmark" sh examples/benchmark/lite_ci.sh \
#       golden/mobilenetv2/model.mindir golden/mobilenetv2/input_0.bin \
#       outputs.txt /tmp
#
# (`refinfer golden MODEL --input INPUT --out DIR` writes DIR/outputs.txt,
# a calibration file in Lite's format.)
# Usage: lite_ci.sh MODEL INPUT.bin CALIBRATION.txt [LOG_DIR]
set -eu
BENCHMARK=${BENCHMARK:-./benchmark}
MODEL=$1
INPUT=$2
CALIB=$3
LOG="${4:-.}/benchmark.log"
NAME=$(basename "$MODEL")

if ! $BENCHMARK --modelFile="$MODEL" --inDataFile="$INPUT" \
        --benchmarkDataFile="$CALIB" --benchmarkDataType=FLOAT \
        --accuracyThreshold=0.5 --loopCount=10 --warmUpLoopCount=3 \
        --numThreads=2 --cpuBindMode=1 --timeProfiling=true >"$LOG" 2>&1; then
    echo "$NAME: benchmark failed, see $LOG" >&2
    tail -n 5 "$LOG" >&2
    exit 1
fi
grep -q "^Run Benchmark .* Success" "$LOG"
avg=$(sed -n 's/.*AvgRunTime = \([0-9.]*\) ms.*/\1/p' "$LOG")
bias=$(sed -n 's/^Mean bias of all nodes\/tensors: \(.*\)%$/\1/p' "$LOG")
echo "$NAME: accuracy ok, avg $avg ms, mean bias $bias%"
