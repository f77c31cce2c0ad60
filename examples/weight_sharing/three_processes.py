# MindSpore Lite's inter-process weight sharing example (the Chinese page "使用Python接口执行云侧推理",
# section 进程间权重共享), changed only where the page targets Ascend or leaves blanks:
#   - `import refinfer as mslite` instead of `import mindspore_lite as mslite`;
#   - init_context's device_type defaults to 'cpu', so context.target = ["cpu"];
#   - model_path1 is the golden MobileNetV2 instead of "path_to_your_mindir", and inputs1 is one
#     MobileNetV2-shaped input instead of the page's UNet inputs.
# Run it from this folder: cd examples/weight_sharing && python three_processes.py
# The master (index 0) publishes its weights in shared memory for the PIDs of processes 1 and 2,
# which map them read-only instead of keeping their own copy (docs/weight-sharing.md).
import refinfer as mslite
import numpy as np
import time
from multiprocessing import Process,Value,Array
import ctypes
PROCESS_NUM = 3
shared_arr = Array('i', [0]*PROCESS_NUM)
share_pid = Array('i', [0]*PROCESS_NUM)
share_handle = Value(ctypes.c_int64,0)

class MsliteModel:
    def __init__(self,model_name='unet'):
        self.model_name = model_name
        self.model = mslite.Model()
        self.pid = self.model.get_model_info("current_pid")

    def __call__(self, inputs):
        self.ms_inputs = self.model.get_inputs()
        shapes = [list(input.shape) for input in inputs]
        self.model.resize(self.ms_inputs, shapes)
        for i in range(len(inputs)):
            self.ms_inputs[i].set_data_from_numpy(inputs[i])
        outputs = self.model.predict(self.ms_inputs)
        outputs = [output.get_data_to_numpy() for output in outputs]
        return outputs

def init_context(device_id, device_type='cpu'):
        context = mslite.Context()
        context.target = [device_type]
        context.ascend.device_id = device_id
        return context

def ChaekPidsComplete():
    filled_count = 0
    for pid in share_pid:
        if pid != 0:
            filled_count += 1
    return filled_count==PROCESS_NUM-1

def thread_infer(index):
    print("index:", index)
    model_path1 = "../model/mobilenetv2.mindir"
    inputs1 = [np.random.randn(1,3,224,224).astype(np.float32)]

    context_1 = init_context(2)
    print("begin model group")
    print("*" * 10, "begin build model", "*" * 10)
    m1 = MsliteModel()
    if index == 0:
        while True:
            if ChaekPidsComplete():
                break
        pids = []
        for pid in share_pid:
            pids.append(int(pid))
        print("str of pids:", str(pids)[1:-1])
        config_info = {"ascend_context":{"shareable_weight_pid_list":str(pids)[1:-1]}}
        m1.model.build_from_file(model_path1,mslite.ModelType.MINDIR, context_1,config_dict=config_info)
        shareable_handle = m1.model.get_model_info("shareable_weight_mem_handle")
        print("shareable handle:", shareable_handle)
        share_handle.value = int(shareable_handle)
        print("int shareable_handle:", int(shareable_handle))
        print("share handle value:", share_handle.value)
    else:
        pid = m1.model.get_model_info("current_pid")
        pid = int(pid)
        print("pid:", pid)
        share_pid[index] = pid
        while True:
            if share_handle.value != 0:
                break
        print("sub process sharehandle:", share_handle.value)
        config_info = {"ascend_context":{"shareable_weight_mem_handle":str(share_handle.value)}}
        m1.model.build_from_file(model_path1, mslite.ModelType.MINDIR, context_1, config_dict=config_info)
    shared_arr[index] = 1
    while True:
        sum = 0
        for num in shared_arr:
            sum += num
        if (sum == PROCESS_NUM):
            break
    tic = time.time()
    res = m1(inputs1)
    toc = time.time()
    print("share ", index, " ", res)
    print("share ", index, "spend time:", toc-tic, "s")

if __name__=="__main__":
    processes = [Process(target=thread_infer, args=(i,)) for i in range(PROCESS_NUM)]
    for process in processes:
        process.start()

    for process in processes:
        process.join()
