"""Decrypt MindIR files encrypted by ``mindspore.export(enc_key=...)``.

Layout (docs/mindir-format.md §6.2; all integers 4-byte little-endian): the
plaintext is cut into blocks of at most 64 MiB, each stored as

    AES-GCM:          magic, tag(16), block_len, iv_len, iv, cipher_len, cipher
    AES-CBC, SM4-CBC: magic,          block_len, iv_len, iv, cipher_len, cipher

where ``block_len = 4 + iv_len + 4 + cipher_len``. The key is the raw
``enc_key``. MindSpore 2.7.1 encrypts GCM blocks with the first 12 bytes of
the stored 16-byte IV as nonce, so that is tried first.

The ciphers come from the ``cryptography`` package (``pip install
refinfer[crypto]``), imported only when a file needs decrypting.
"""
from __future__ import annotations

import struct

MAGICS = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
MODES = {magic: mode for mode, magic in MAGICS.items()}
GCM_TAG_SIZE = 16


class DecryptionError(ValueError):
    pass


def encryption_mode(blob) -> str | None:
    """The mode whose magic ``blob`` starts with, or None (not encrypted)."""
    if len(blob) < 4:
        return None
    return MODES.get(struct.unpack_from("<I", blob, 0)[0])


def decrypt(blob: bytes, key: bytes, mode: str) -> bytes:
    """The plaintext of an encrypted MindIR (or weight) file."""
    found = encryption_mode(blob)
    if found != mode:
        raise DecryptionError(f"the file is encrypted with {found}, "
                              f"dec_mode is {mode}")
    ciphers = _ciphers()
    parts, pos = [], 0
    try:
        while pos < len(blob):
            pos, part = _block(blob, pos, key, mode, ciphers)
            parts.append(part)
    except DecryptionError:
        raise
    except ValueError as exc:  # e.g. a key of the wrong length
        raise DecryptionError(f"cannot decrypt with this key: {exc}") from exc
    return b"".join(parts)


def _block(blob, pos, key, mode, ciphers) -> tuple[int, bytes]:
    magic, pos = _u32(blob, pos)
    if magic != MAGICS[mode]:
        raise DecryptionError(f"block at byte {pos - 4} has no {mode} magic")
    tag = b""
    if mode == "AES-GCM":
        tag, pos = blob[pos:pos + GCM_TAG_SIZE], pos + GCM_TAG_SIZE
        if len(tag) != GCM_TAG_SIZE:
            raise DecryptionError("the file ends inside a block header: it "
                                  "is truncated or corrupt")
    block_len, pos = _u32(blob, pos)
    end = pos + block_len
    iv_len, pos = _u32(blob, pos)
    iv, pos = blob[pos:pos + iv_len], pos + iv_len
    cipher_len, pos = _u32(blob, pos)
    if end > len(blob) or pos + cipher_len != end:
        raise DecryptionError("a block's lengths run past the end of the "
                              "file: the file is truncated or corrupt")
    cipher = blob[pos:end]
    if mode == "AES-GCM":
        return end, _gcm(ciphers, key, iv, cipher, tag)
    return end, _cbc(ciphers, key, iv, cipher, mode)


def _u32(blob, pos) -> tuple[int, int]:
    if pos + 4 > len(blob):
        raise DecryptionError("the file ends inside a block header: it is "
                              "truncated or corrupt")
    return struct.unpack_from("<I", blob, pos)[0], pos + 4


def _gcm(ciphers, key, iv, cipher, tag) -> bytes:
    aead = ciphers["AESGCM"](key)
    for nonce in (iv[:12], iv):
        try:
            return aead.decrypt(nonce, cipher + tag, None)
        except ciphers["InvalidTag"]:
            continue
    raise DecryptionError("wrong key, or the file is corrupt (AES-GCM "
                          "authentication failed)")


def _cbc(ciphers, key, iv, cipher, mode) -> bytes:
    algorithm = ciphers["AES" if mode == "AES-CBC" else "SM4"](key)
    decryptor = ciphers["Cipher"](algorithm, ciphers["CBC"](iv)).decryptor()
    padded = decryptor.update(cipher) + decryptor.finalize()
    unpadder = ciphers["PKCS7"](128).unpadder()
    try:
        return unpadder.update(padded) + unpadder.finalize()
    except ValueError as exc:
        raise DecryptionError(f"wrong key, or the file is corrupt ({mode} "
                              "padding is invalid)") from exc


def _ciphers() -> dict:
    try:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        from cryptography.hazmat.primitives.padding import PKCS7
    except ImportError as exc:
        raise DecryptionError("decrypting needs the 'cryptography' package: "
                              "pip install 'refinfer[crypto]'") from exc
    return {"AESGCM": AESGCM, "InvalidTag": InvalidTag, "Cipher": Cipher,
            "CBC": modes.CBC, "AES": algorithms.AES, "SM4": algorithms.SM4,
            "PKCS7": PKCS7}
