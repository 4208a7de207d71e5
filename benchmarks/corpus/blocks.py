"""The corpus: blocks of Llama, GPT-2, T5 and ViT as PyTorch users write them.

Each entry is an `nn.Module` written the way the model's reference code writes it (norms
with eps and a learnable gain, `nn.Linear` with bias, torch's softmax, heads split by
view/transpose, repeated KV heads), the names and shapes of its forward() inputs, two sets
of dimensions (small, exported in float32; realistic, exported in float16) and the number of
kernels an expert would write for it by hand, with the reason.

Parameters are passed to the export as forward() arguments (`torch.func.functional_call`),
after the activations, so the exported files hold no weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

Dims = dict[str, int]

SMALL: Dims = {"t": 8, "d": 64, "f": 96, "h": 4, "kv": 2, "hd": 16, "s": 16, "r": 4, "b": 2}
"""Small shapes (float32): tokens, hidden, MLP width, heads, KV heads, head dim, sequence,
LoRA rank, batch."""


# --- norms ------------------------------------------------------------------------------


class LlamaRMSNorm(nn.Module):
    """As in Llama's reference code: statistics in float32, the gain applied after."""

    def __init__(self, d: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.variance_epsilon = eps

    def forward(self, hidden_states: Tensor) -> Tensor:
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class T5LayerNorm(nn.Module):
    """T5's norm: no mean subtraction, no bias; x / sqrt(mean(x^2) + eps) * weight."""

    def __init__(self, d: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.variance_epsilon = eps

    def forward(self, hidden_states: Tensor) -> Tensor:
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        if self.weight.dtype in (torch.float16, torch.bfloat16):
            hidden_states = hidden_states.to(self.weight.dtype)
        return self.weight * hidden_states


class HandLayerNorm(nn.Module):
    """A LayerNorm written out by hand (as in many ViT and GPT-2 reimplementations)."""

    def __init__(self, d: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x: Tensor) -> Tensor:
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta


class RMSNorm(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.norm = LlamaRMSNorm(d)

    def forward(self, x: Tensor) -> Tensor:
        return self.norm(x)


class RMSNormLinear(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.norm = LlamaRMSNorm(d)
        self.proj = nn.Linear(d, f, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.proj(self.norm(x))


class FRMSNormLinear(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.proj = nn.Linear(d, f, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.proj(F.rms_norm(x, (x.shape[-1],), self.weight, eps=1e-5))


class ResidualRMSNorm(nn.Module):
    """Llama's fused-residual pattern: the sum is both the next residual and normed."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.norm = LlamaRMSNorm(d)

    def forward(self, x: Tensor, residual: Tensor) -> tuple[Tensor, Tensor]:
        h = x + residual
        return self.norm(h), h


class T5Norm(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.norm = T5LayerNorm(d)

    def forward(self, x: Tensor) -> Tensor:
        return self.norm(x)


class T5NormLinear(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.norm = T5LayerNorm(d)
        self.q = nn.Linear(d, f, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.q(self.norm(x))


class LayerNormModule(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(d)

    def forward(self, x: Tensor) -> Tensor:
        return self.ln(x)


class FLayerNorm(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, x: Tensor) -> Tensor:
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, 1e-5)


class HandLayerNormBlock(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.ln = HandLayerNorm(d)

    def forward(self, x: Tensor) -> Tensor:
        return self.ln(x)


class ResidualLayerNorm(nn.Module):
    """GPT-2: the residual stream plus a sublayer's output, normed for the next sublayer."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.ln_2 = nn.LayerNorm(d)

    def forward(self, x: Tensor, attn_out: Tensor) -> tuple[Tensor, Tensor]:
        x = x + attn_out
        return self.ln_2(x), x


class LayerNormLinear(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc = nn.Linear(d, f)

    def forward(self, x: Tensor) -> Tensor:
        return self.fc(self.ln(x))


# --- linear layers and MLPs -------------------------------------------------------------


class LinearBias(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.fc = nn.Linear(d, f)

    def forward(self, x: Tensor) -> Tensor:
        return self.fc(x)


class LinearChain(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d, f, bias=False)
        self.fc2 = nn.Linear(f, d, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.fc2(self.fc1(x))


class LinearGelu(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.fc = nn.Linear(d, f)
        self.act = nn.GELU()

    def forward(self, x: Tensor) -> Tensor:
        return self.act(self.fc(x))


def gelu_new(x: Tensor) -> Tensor:
    """GPT-2's tanh approximation of GELU, as its reference code writes it."""
    return (
        0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
    )


class GPT2MLP(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.c_fc = nn.Linear(d, f)
        self.c_proj = nn.Linear(f, d)

    def forward(self, x: Tensor) -> Tensor:
        return self.c_proj(gelu_new(self.c_fc(x)))


class T5DenseReluDense(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.wi = nn.Linear(d, f, bias=False)
        self.wo = nn.Linear(f, d, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.wo(F.relu(self.wi(x)))


class SiluGate(nn.Module):
    """The first half of Llama's MLP: silu(gate(x)) * up(x)."""

    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(d, f, bias=False)
        self.up_proj = nn.Linear(d, f, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(self.gate_proj(x)) * self.up_proj(x)


class LlamaMLP(nn.Module):
    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(d, f, bias=False)
        self.up_proj = nn.Linear(d, f, bias=False)
        self.down_proj = nn.Linear(f, d, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class FusedGateUpMLP(nn.Module):
    """Phi-3's MLP: one projection makes gate and up, `chunk(2, -1)` splits them."""

    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.gate_up_proj = nn.Linear(d, 2 * f, bias=False)
        self.down_proj = nn.Linear(f, d, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        gate, up_states = self.gate_up_proj(x).chunk(2, dim=-1)
        return self.down_proj(up_states * F.silu(gate))


class LlamaMLPBlock(nn.Module):
    """h + mlp(post_attention_layernorm(h))."""

    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.post_attention_layernorm = LlamaRMSNorm(d)
        self.mlp = LlamaMLP(d, f)

    def forward(self, h: Tensor) -> Tensor:
        return h + self.mlp(self.post_attention_layernorm(h))


class ViTMLPBlock(nn.Module):
    """x + fc2(gelu(fc1(layernorm_after(x)))), as ViT's encoder layer."""

    def __init__(self, d: int, f: int) -> None:
        super().__init__()
        self.layernorm_after = nn.LayerNorm(d, eps=1e-12)
        self.fc1 = nn.Linear(d, f)
        self.fc2 = nn.Linear(f, d)

    def forward(self, x: Tensor) -> Tensor:
        return x + self.fc2(F.gelu(self.fc1(self.layernorm_after(x))))


class LoRALinear(nn.Module):
    """A frozen linear layer plus a low-rank update scaled by alpha / r (peft's form)."""

    def __init__(self, d: int, f: int, r: int) -> None:
        super().__init__()
        self.base_layer = nn.Linear(d, f, bias=False)
        self.lora_A = nn.Linear(d, r, bias=False)
        self.lora_B = nn.Linear(r, f, bias=False)
        self.scaling = 16 / r

    def forward(self, x: Tensor) -> Tensor:
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling


# --- softmax and attention --------------------------------------------------------------


class Softmax(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return torch.softmax(x, dim=-1)


class ScaledAttention(nn.Module):
    """softmax(q k^T / sqrt(d)) v over (batch x heads, sequence, head dim) tensors."""

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)


class PrescaledAttention(nn.Module):
    """The query scaled before the product (as some ViT code does)."""

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        q = q * q.shape[-1] ** -0.5
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return attn @ v


class T5Attention(nn.Module):
    """T5 does not scale its scores (the scale is folded into the initialization)."""

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        scores = torch.matmul(q, k.transpose(3, 2))
        weights = F.softmax(scores.float(), dim=-1).type_as(scores)
        return torch.matmul(weights, v)


def _split_heads(x: Tensor, heads: int) -> Tensor:
    b, s, _ = x.shape
    return x.view(b, s, heads, -1).transpose(1, 2)


class MultiHeadAttention(nn.Module):
    """Heads split from (batch, sequence, hidden) by view/transpose and merged back."""

    def __init__(self, heads: int) -> None:
        super().__init__()
        self.heads = heads

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        b, s, d = q.shape
        qh, kh, vh = (_split_heads(t, self.heads) for t in (q, k, v))
        scores = qh @ kh.transpose(-2, -1) * (1.0 / math.sqrt(d // self.heads))
        out = torch.softmax(scores, dim=-1) @ vh
        return out.transpose(1, 2).contiguous().view(b, s, d)


class AttentionOutProj(nn.Module):
    """Multi-head attention followed by the output projection (GPT-2's c_proj)."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.attn = MultiHeadAttention(heads)
        self.c_proj = nn.Linear(d, d)

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        return self.c_proj(self.attn(q, k, v))


def repeat_kv(hidden_states: Tensor, n_rep: int) -> Tensor:
    """Llama's repeat_kv: (batch, kv heads, seq, hd) -> (batch, kv heads * n_rep, seq, hd)."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(
        batch, num_key_value_heads, n_rep, slen, head_dim
    )
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class GQAttention(nn.Module):
    """Grouped-query attention: KV heads repeated to the query heads."""

    def __init__(self, n_rep: int) -> None:
        super().__init__()
        self.n_rep = n_rep

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        k = repeat_kv(k, self.n_rep)
        v = repeat_kv(v, self.n_rep)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(q.shape[-1])
        weights = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(weights, v)


def rotate_half(x: Tensor) -> Tensor:
    """Llama's rotate_half: the halves of the last dim swapped, the new first one negated."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    """Llama's apply_rotary_pos_emb: queries and keys rotated by position (cos and sin of
    (sequence, head dim), broadcast over the heads), the attention's inputs."""

    def forward(self, q: Tensor, k: Tensor, cos: Tensor, sin: Tensor) -> tuple[Tensor, Tensor]:
        q_embed = (q * cos) + (rotate_half(q) * sin)
        k_embed = (k * cos) + (rotate_half(k) * sin)
        return q_embed, k_embed


class QKNormAttention(nn.Module):
    """Attention whose queries and keys are RMS-normed per head (with eps and gain)."""

    def __init__(self, hd: int) -> None:
        super().__init__()
        self.q_norm = LlamaRMSNorm(hd)
        self.k_norm = LlamaRMSNorm(hd)

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        q, k = self.q_norm(q), self.k_norm(k)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)


# --- the corpus -------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    name: str
    family: str
    make: Callable[[Dims], nn.Module]
    inputs: tuple[tuple[str, Callable[[Dims], tuple[int, ...]]], ...]
    """The forward() arguments: name and shape as a function of the dimensions."""
    realistic: Dims
    expert: int
    reason: str

    def dims(self, size: str) -> Dims:
        return SMALL if size == "small" else self.realistic


def _td(n: Dims) -> tuple[int, ...]:
    return (n["t"], n["d"])


def _tf(n: Dims) -> tuple[int, ...]:
    return (n["t"], n["f"])


def _heads(n: Dims) -> tuple[int, ...]:
    return (n["b"] * n["h"], n["s"], n["hd"])


def _bshd(n: Dims) -> tuple[int, ...]:
    return (n["b"], n["s"], n["h"] * n["hd"])


def _bhsd(n: Dims) -> tuple[int, ...]:
    return (n["b"], n["h"], n["s"], n["hd"])


def _bkvsd(n: Dims) -> tuple[int, ...]:
    return (n["b"], n["kv"], n["s"], n["hd"])


def _sd(n: Dims) -> tuple[int, ...]:
    return (n["s"], n["hd"])


def _decode_q(n: Dims) -> tuple[int, ...]:
    return (n["b"] * n["h"], 1, n["hd"])


X = (("x", _td),)
QKV = (("q", _heads), ("k", _heads), ("v", _heads))
LLAMA = {"t": 16, "d": 4096, "f": 11008, "r": 16}
GPT2 = {"t": 64, "d": 2048, "f": 8192}
T5 = {"t": 64, "d": 2048, "f": 5120}
VIT = {"t": 256, "d": 2048, "f": 8192}
PREFILL = {"b": 2, "h": 32, "kv": 8, "s": 1024, "hd": 128, "d": 4096}
DECODE = {"b": 8, "h": 32, "s": 4096, "hd": 128}

# fmt: off
BLOCKS: tuple[Block, ...] = (
    Block("rmsnorm", "llama", lambda n: RMSNorm(n["d"]), X, LLAMA, 1,
          "one row per block: sum of squares, then scale by rsqrt and gain"),
    Block("rmsnorm_linear", "llama", lambda n: RMSNormLinear(n["d"], n["f"]), X, LLAMA, 1,
          "the gain folds into the matmul's loads, the rsqrt into its epilogue"),
    Block("f_rms_norm_linear", "llama", lambda n: FRMSNormLinear(n["d"], n["f"]), X, LLAMA, 1,
          "F.rms_norm with a weight: the same kernel as rmsnorm_linear"),
    Block("residual_rmsnorm", "llama", lambda n: ResidualRMSNorm(n["d"]),
          (("x", _td), ("residual", _td)), LLAMA, 1,
          "the add and the norm read each row once and write both outputs"),
    Block("silu_gate", "llama", lambda n: SiluGate(n["d"], n["f"]), X, LLAMA, 1,
          "both projections share the x tiles; silu and the product in the epilogue"),
    Block("swiglu_mlp", "llama", lambda n: LlamaMLP(n["d"], n["f"]), X, LLAMA, 2,
          "gate/up kernel, then the down projection (it needs whole rows of the product)"),
    Block("fused_gate_up_mlp", "llama", lambda n: FusedGateUpMLP(n["d"], n["f"]), X, LLAMA, 2,
          "gate/up kernel reading both halves of the fused weight, then the down projection"),
    Block("llama_mlp_block", "llama", lambda n: LlamaMLPBlock(n["d"], n["f"]), (("h", _td),),
          LLAMA, 2, "norm folded into the gate/up kernel; the residual add into the down one"),
    Block("lora", "llama", lambda n: LoRALinear(n["d"], n["f"], n["r"]), X, LLAMA, 1,
          "x A is tiny: each block recomputes it and adds (x A) B * scale to x W"),
    Block("gqa_repeat_kv", "llama", lambda n: GQAttention(n["h"] // n["kv"]),
          (("q", _bhsd), ("k", _bkvsd), ("v", _bkvsd)), PREFILL, 1,
          "FlashAttention over the shared KV heads: the repeat is an index map"),
    Block("rotary_embedding", "llama", lambda n: RotaryEmbedding(),
          (("q", _heads), ("k", _heads), ("cos", _sd), ("sin", _sd)), PREFILL, 1,
          "one elementwise kernel: each row's halves read once, rotated, times cos and sin"),
    Block("qknorm_attention", "llama", lambda n: QKNormAttention(n["hd"]),
          (("q", _bhsd), ("k", _bhsd), ("v", _bhsd)), PREFILL, 1,
          "FlashAttention with the per-head norms applied to the q and k tiles"),
    Block("layernorm", "gpt2", lambda n: LayerNormModule(n["d"]), X, GPT2, 1,
          "one row per block: mean and variance, then scale, gain and bias"),
    Block("residual_layernorm", "gpt2", lambda n: ResidualLayerNorm(n["d"]),
          (("x", _td), ("attn_out", _td)), GPT2, 1,
          "the add and the norm read each row once and write both outputs"),
    Block("linear_bias", "gpt2", lambda n: LinearBias(n["d"], n["f"]), X, GPT2, 1,
          "the bias is added in the matmul's epilogue"),
    Block("linear_chain", "gpt2", lambda n: LinearChain(n["d"], n["f"]), X, GPT2, 2,
          "two GEMMs: the second needs whole rows of the first's result"),
    Block("gelu_tanh_mlp", "gpt2", lambda n: GPT2MLP(n["d"], n["f"]), X, GPT2, 2,
          "c_fc with bias and gelu in its epilogue, then c_proj with bias"),
    Block("multi_head_attention", "gpt2", lambda n: MultiHeadAttention(n["h"]),
          (("q", _bshd), ("k", _bshd), ("v", _bshd)), PREFILL, 1,
          "FlashAttention reading heads through strided views: the splits are index maps"),
    Block("attention_out_proj", "gpt2", lambda n: AttentionOutProj(n["h"] * n["hd"], n["h"]),
          (("q", _bshd), ("k", _bshd), ("v", _bshd)), PREFILL, 2,
          "FlashAttention, then c_proj over the merged heads with the bias"),
    Block("t5_norm", "t5", lambda n: T5Norm(n["d"]), X, T5, 1,
          "RMSNorm without mean subtraction: one row per block"),
    Block("t5_norm_linear", "t5", lambda n: T5NormLinear(n["d"], n["f"]), X, T5, 1,
          "as rmsnorm_linear"),
    Block("t5_relu_mlp", "t5", lambda n: T5DenseReluDense(n["d"], n["f"]), X, T5, 2,
          "wi with relu in its epilogue, then wo"),
    Block("t5_attention", "t5", lambda n: T5Attention(),
          (("q", _bhsd), ("k", _bhsd), ("v", _bhsd)), PREFILL, 1,
          "FlashAttention without a scale"),
    Block("layernorm_handwritten", "vit", lambda n: HandLayerNormBlock(n["d"]), X, VIT, 1,
          "as layernorm: the operand order of the hand-written form does not matter"),
    Block("f_layer_norm", "vit", lambda n: FLayerNorm(n["d"]), X, VIT, 1,
          "F.layer_norm with weight and bias: as layernorm"),
    Block("layernorm_linear", "vit", lambda n: LayerNormLinear(n["d"], n["f"]), X, VIT, 1,
          "(x - mean) g W / std + b: statistics alongside the matmul's loads"),
    Block("linear_gelu", "vit", lambda n: LinearGelu(n["d"], n["f"]), X, VIT, 1,
          "bias and gelu in the matmul's epilogue"),
    Block("vit_mlp_block", "vit", lambda n: ViTMLPBlock(n["d"], n["f"]), X, VIT, 2,
          "norm and fc1 + gelu in one kernel, fc2 + bias + residual in the other"),
    Block("softmax", "vit", lambda n: Softmax(), (("x", _tf),), VIT, 1,
          "one row per block: max, sum of exps, division"),
    Block("scaled_attention", "vit", lambda n: ScaledAttention(), QKV, PREFILL, 1,
          "FlashAttention: online softmax over key tiles"),
    Block("prescaled_attention", "vit", lambda n: PrescaledAttention(), QKV, PREFILL, 1,
          "as scaled_attention, the scale on the q tiles"),
    Block("decode_attention", "llama", lambda n: ScaledAttention(),
          (("q", _decode_q), ("k", _heads), ("v", _heads)), DECODE, 2,
          "one query row per head: split-KV partial softmaxes, then their combination"),
)
# fmt: on


def block(name: str) -> Block:
    for b in BLOCKS:
        if b.name == name:
            return b
    raise KeyError(name)


class Exported(nn.Module):
    """`module` with its parameters as forward() arguments after the activations."""

    def __init__(self, module: nn.Module, arity: int) -> None:
        super().__init__()
        self.inner = module
        self.arity = arity
        self.names = [name for name, _ in module.named_parameters()]

    def forward(self, *args: Tensor) -> Tensor | tuple[Tensor, ...]:
        inputs, params = args[: self.arity], args[self.arity :]
        return torch.func.functional_call(
            self.inner, dict(zip(self.names, params, strict=True)), inputs
        )


def random_like_inputs(
    b: Block, size: str, dtype: torch.dtype, seed: int = 0
) -> tuple[nn.Module, list[Tensor], list[str]]:
    """The module (its parameters as arguments), its arguments and their names: values
    uniform in +-[0.25, 1], so norms and softmax sums stay finite, and weight matrices
    divided by the square root of their fan-in (the last dim, as nn.Linear's own
    initialization scales them), so that a stack of projections keeps its values in
    f16's range (an MLP with an 11008-wide down projection would otherwise reach 1e5)."""
    gen = torch.Generator().manual_seed(seed)
    n = b.dims(size)
    module = b.make(n).to(dtype).eval()

    def rand(shape: tuple[int, ...], scale: float = 1.0) -> Tensor:
        mag = torch.rand(shape, generator=gen, dtype=torch.float64) * 0.75 + 0.25
        sign = torch.randint(0, 2, shape, generator=gen, dtype=torch.float64) * 2 - 1
        return (mag * sign * scale).to(dtype)

    args = [rand(shape(n)) for _, shape in b.inputs]
    names = [name for name, _ in b.inputs]
    for pname, p in module.named_parameters():
        fan_in = p.shape[-1] if p.dim() >= 2 else 1
        args.append(rand(tuple(p.shape), fan_in**-0.5))
        names.append(pname)
    return Exported(module, len(b.inputs)), args, names
