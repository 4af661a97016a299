"""`LlamaRuntime`: the `LLM` protocol on llama-cpp-python — one model, one context, exact accounting.

Per call: render the prompt with the model's chat template (`chat.ChatFormat`), reuse the longest
token prefix already in the KV cache, restore the role's saved stable-prefix state when the cache
holds another role's prompt (`prefix_cache.PrefixCache`, also persisted under `kv_cache_dir`),
evaluate only the rest, then generate (`decoding`), constrained or not. `Usage` counts prompt
tokens, tokens actually evaluated, generated tokens and wall milliseconds, split into prompt
evaluation, generation and prefix state save/restore (the rest is tokenizing and bookkeeping).
A call given an `interrupt` event evaluates its prompt in chunks of `interrupt_tokens` and looks at the
event before each chunk and each generated token: a cancel or a stop is honoured within one chunk's
work (an 8B on an N100 evaluates ~6.5 tokens/s: 64 tokens ≈ 10 s), not after the whole call.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from edge_agent.failures import Interrupted
from edge_agent.llm.automaton import TokenTable, automaton_for
from edge_agent.llm.base import Completer, Completion, Constraint, Prompt, Request, Usage
from edge_agent.llm.chat import ChatFormat, Segment
from edge_agent.llm.decoding import generate_constrained, generate_free
from edge_agent.llm.prefix_cache import PrefixCache, SavedPrefix

log = logging.getLogger(__name__)
T = TypeVar("T")


class LLMError(RuntimeError):
    """The runtime could not serve a call (prompt too long for the context, decode failure)."""


class ContextOverflow(LLMError):
    pass


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    x = np.asarray(a[:n], dtype=np.int64)
    y = np.asarray(b[:n], dtype=np.int64)
    diff = np.flatnonzero(x != y)
    return int(diff[0]) if len(diff) else n


class LlamaRuntime(Completer):
    """A loaded GGUF model. Thread-safe (calls are serialised: one context)."""

    def __init__(
        self,
        path: Path | str,
        *,
        model_name: str,
        sha256: str = "",
        n_ctx: int = 8192,
        n_batch: int = 512,
        n_ubatch: int | None = 256,
        threads: int | None = None,
        seed: int = 0,
        temperature: float = 0.0,
        chat_template: str | None = None,
        kv_cache_dir: Path | None = None,
        persist_prefix_cache: bool = True,
        flash_attn: bool = False,
        prefix_states_per_role: int = 8,
        interrupt_tokens: int = 64,
    ):
        import llama_cpp
        from llama_cpp import llama_cpp as C

        self._C = C
        self.model_name = model_name
        self.path = Path(path)
        self.sha256 = sha256
        self.seed = seed
        self.temperature = temperature
        threads = threads or os.cpu_count() or 1

        def open_context(ctx: int) -> Any:  # a llama_cpp.Llama (the library has no types)
            # flash attention never materialises a batch's attention scores (a smaller compute buffer) and
            # evaluates long prompts ~1.3x faster on this CPU, but short evaluations after a long prefix
            # (an agent step: the question, an observation, one generated token) ran 2x slower with it,
            # so it is off by default and n_ubatch bounds the scores' buffer instead (n_ctx x n_ubatch x
            # heads x 4 bytes; bench/reports/2026-11-23-example-groups/restart-*.txt).
            # swa_full: Gemma 3's sliding-window cache keeps whole prefixes.
            return llama_cpp.Llama(
                str(self.path),
                n_ctx=ctx,
                n_batch=min(n_batch, ctx),
                n_ubatch=min(n_ubatch or n_batch, n_batch, ctx),
                n_threads=threads,
                n_threads_batch=threads,
                seed=seed,
                verbose=False,
                swa_full=True,
                flash_attn=flash_attn,
            )

        probe_ctx = max(512, n_ctx)
        self._llm = open_context(probe_ctx)
        train_ctx = self._llm._model.n_ctx_train()
        if train_ctx and train_ctx < probe_ctx:  # never beyond what the model was trained for
            self._llm.close()
            self._llm = open_context(train_ctx)
        self.n_ctx = self._llm.n_ctx()
        self.n_vocab = self._llm.n_vocab()
        self._ctx = self._llm.ctx
        self._vocab = C.llama_model_get_vocab(self._llm.model)
        self._mem = C.llama_get_memory(self._ctx)
        self._add_bos = bool(C.llama_vocab_get_add_bos(self._vocab))
        self._bos = self._llm.token_bos()
        bos_text = self._token_text(self._bos) if self._bos >= 0 else ""
        eos = self._llm.token_eos()
        eos_text = self._token_text(eos) if eos >= 0 else ""
        template = chat_template or self._llm.metadata.get("tokenizer.chat_template")
        self.chat = ChatFormat(template, bos_token=bos_text, eos_token=eos_text)
        cache_dir = Path(kv_cache_dir) if (kv_cache_dir and persist_prefix_cache) else None
        model_key = (sha256 or self.path.name)[:16]
        self.table = self._token_table(cache_dir / f"{model_key}-vocab.npz" if cache_dir and sha256 else None)
        self._lock = threading.RLock()
        self._tokens: list[int] = []  # what the KV cache holds, position by position
        # a state holds the KV cells as this context lays them out (V transposed without flash attention)
        per_role = prefix_states_per_role if cache_dir else min(2, prefix_states_per_role)  # memory: at most 2
        self.prefix_cache = PrefixCache(
            cache_dir, model_key=model_key if flash_attn else f"{model_key}-vt", per_role=per_role
        )
        self.calls = 0
        self._state_ms = 0.0  # prefix state save/restore time of the current call
        self.interrupt_tokens = max(1, interrupt_tokens)
        self._interrupt: threading.Event | None = None  # the current call's
        self._fed = 0  # tokens the current call has evaluated so far
        self._n_prompt = 0  # the current call's prompt tokens
        self._gen_from: int | None = None  # `_fed` when the current call began generating

    # -- vocabulary ------------------------------------------------------------------------
    def _token_text(self, tok: int) -> str:
        text: str = self._llm._model.token_get_text(tok)
        return text

    def _token_table(self, cached: Path | None = None) -> TokenTable:
        """The vocabulary as bytes. Asking llama.cpp for each of a vocabulary's pieces is a third of a
        second for SmolLM2's 49k (more for 128k-token vocabularies), paid at every start, so with a
        state dir the pieces are kept in `cached` (named by the model file's sha256) and read back."""
        pieces, eog = load_vocab(cached, self.n_vocab) if cached is not None else (None, None)
        if pieces is None or eog is None:
            pieces, eog = self._vocab_pieces()
            if cached is not None:
                save_vocab(cached, pieces, eog)
        return TokenTable(
            pieces, eog, self.n_vocab, tokenize=lambda data: self._llm.tokenize(data, add_bos=False, special=False)
        )

    def _vocab_pieces(self) -> tuple[list[bytes | None], list[int]]:
        C, vocab = self._C, self._vocab
        buf = ctypes.create_string_buffer(512)
        pieces: list[bytes | None] = []
        eog = []
        for tok in range(self.n_vocab):
            if C.llama_vocab_is_eog(vocab, tok):
                eog.append(tok)
            if C.llama_vocab_is_control(vocab, tok):
                pieces.append(None)
                continue
            n = C.llama_token_to_piece(vocab, tok, buf, len(buf), 0, False)
            pieces.append(buf.raw[:n] if n > 0 else None)
        return pieces, eog

    # -- the LLM protocol --------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def tokenize_prompt(self, prompt: Prompt) -> tuple[list[int], int]:
        """The prompt's tokens and how many of them form the role-stable prefix."""
        tokens, _, n_prefix = self._tokenize(prompt)
        return tokens, n_prefix

    def _tokenize(self, prompt: Prompt) -> tuple[list[int], int, int]:
        """The prompt's tokens, how many are the part shared by every question (`Prompt.shared`, 0 if
        none) and how many the role's stable prefix; each part is tokenized on its own, so its tokens
        are the same whatever follows. Only the chat template's own text is read for control tokens: content
        (instructions, the question, Observations, the scratchpad) is tokenized as plain text, so a question
        or an Observation that writes "<|im_end|><|im_start|>system" cannot open a turn of its own."""
        segments = self.chat.segments(prompt)
        at = next(i for i, seg in enumerate(segments) if seg.kind == "user")
        head, rest = segments[:at], segments[at:]
        parts = [head]
        sys_at = next((i for i, seg in enumerate(head) if seg.kind == "system"), None)
        if prompt.shared and sys_at is not None:  # cut after the shared part of the system text
            text = head[sys_at].text
            first = head[:sys_at] + [Segment(text[: prompt.shared], "system")]
            second = [Segment(text[prompt.shared :], "system")] + head[sys_at + 1 :]
            if any(seg.text for seg in second):
                parts = [first, second]
        pieces = [self._segment_tokens(part) for part in parts]
        if self._add_bos and self._bos >= 0 and (not pieces[0] or pieces[0][0] != self._bos):
            pieces[0] = [self._bos] + pieces[0]
        head_tokens = [t for piece in pieces for t in piece]
        return head_tokens + self._segment_tokens(rest), len(pieces[0]) if len(pieces) > 1 else 0, len(head_tokens)

    def _segment_tokens(self, segments: list[Segment]) -> list[int]:
        return [
            t
            for seg in segments
            if seg.text
            for t in self._llm.tokenize(seg.text.encode("utf-8"), add_bos=False, special=seg.kind == "template")
        ]

    def _answer(self, prompt: Prompt, request: Request) -> Completion:
        started = time.perf_counter()
        with self._lock:
            self._interrupt, self._fed, self._n_prompt, self._gen_from = request.interrupt, 0, 0, None
            try:
                return self._complete(
                    prompt, request.role, request.constraint, request.max_tokens, request.stop, started
                )
            except Interrupted as exc:  # what the call spent until the stop, for the run's accounting
                prompt_fed = self._fed if self._gen_from is None else self._gen_from
                exc.usage = Usage(
                    prompt_tokens=self._n_prompt,
                    evaluated_tokens=prompt_fed,
                    generated_tokens=self._fed - prompt_fed,
                    state_ms=self._state_ms,
                    ms=(time.perf_counter() - started) * 1000.0,
                )
                raise
            finally:
                self._interrupt = None

    def _complete(
        self,
        prompt: Prompt,
        role: str,
        constraint: Constraint | None,
        max_tokens: int,
        stop: Sequence[str],
        started: float,
    ) -> Completion:
        """`complete`'s work, under its lock."""
        tokens, n_shared, n_prefix = self._tokenize(prompt)
        if max_tokens == 0 and n_prefix:  # a warm-up: the role's stable prefix only, restored or evaluated
            tokens = tokens[:n_prefix]
        if len(tokens) >= self.n_ctx:
            raise ContextOverflow(f"the prompt has {len(tokens)} tokens; the context holds {self.n_ctx}")
        max_tokens = max(0, min(max_tokens, self.n_ctx - len(tokens)))
        self._n_prompt = len(tokens)
        self._state_ms = 0.0
        prepare_start = time.perf_counter()
        evaluated = self._prepare(tokens, n_prefix, role, n_shared)
        gen_start = time.perf_counter()
        self._gen_from = self._fed
        forced = tail = tail_forced = 0
        if max_tokens == 0:
            gen_tokens, text, reason = [], "", "length"
        elif constraint is not None:
            auto = automaton_for(constraint)
            out = generate_constrained(
                self, self.table, auto, max_tokens=max_tokens, temperature=self.temperature, seed=self.seed
            )
            gen_tokens, text, reason, forced = out.tokens, out.text, out.finish_reason, out.forced
            tail, tail_forced = out.tail, out.tail_forced
            if reason == "stop" and hasattr(constraint, "check"):
                try:
                    constraint.check(text)
                except ValueError as exc:
                    log.error("constrained output failed validation: %s", exc)
                    reason = "constraint"
        else:
            out = generate_free(
                self, self.table, max_tokens=max_tokens, temperature=self.temperature, seed=self.seed, stop=stop
            )
            gen_tokens, text, reason = out.tokens, out.text, out.finish_reason
        gen_ms = (time.perf_counter() - gen_start) * 1000.0
        eval_ms = (gen_start - prepare_start) * 1000.0 - self._state_ms
        self.calls += 1
        usage = Usage(
            prompt_tokens=len(tokens),
            evaluated_tokens=evaluated,
            generated_tokens=len(gen_tokens),
            forced_tokens=forced,
            tail_tokens=tail,
            tail_forced=tail_forced,
            ms=(time.perf_counter() - started) * 1000.0,
            eval_ms=max(0.0, eval_ms),
            gen_ms=gen_ms,
            state_ms=self._state_ms,
        )
        return Completion(text=text, usage=usage, finish_reason=reason)

    # -- KV cache --------------------------------------------------------------------------
    def _prepare(self, tokens: list[int], n_prefix: int, role: str, n_shared: int = 0) -> int:
        """Bring the KV cache to `tokens` (all but what is reused); returns tokens evaluated. The state
        after the part every question shares (`n_shared`) and after the role's whole stable prefix is
        saved where it is not yet, so the next question restores the first and the next trial the second."""
        reuse = _common_prefix(self._tokens, tokens)
        if reuse < n_prefix:
            saved = self.prefix_cache.find(role, tokens)
            if saved is not None and len(saved.tokens) > reuse and self._state_op(self._restore, saved):
                reuse = len(saved.tokens)
        if reuse >= len(tokens):
            reuse = len(tokens) - 1  # the last token is evaluated again for fresh logits
        self._truncate(reuse)
        evaluated = 0
        for point in (n_shared, n_prefix):
            if 0 < point and reuse < point <= len(tokens) and not self.prefix_cache.has(role, tokens[:point]):
                self.feed(tokens[reuse:point])
                evaluated += point - reuse
                reuse = point
                self._state_op(self._save, role, tokens[:point])
        self.feed(tokens[reuse:])
        evaluated += len(tokens) - reuse
        return evaluated

    def _truncate(self, n: int) -> None:
        if n < len(self._tokens):
            if not self._C.llama_memory_seq_rm(self._mem, -1, n, -1):
                self._C.llama_memory_clear(self._mem, True)
                n = 0
            del self._tokens[n:]
        self._llm.n_tokens = len(self._tokens)

    def feed(self, tokens: list[int]) -> None:
        """Evaluate `tokens` after what the cache holds (DecodeTarget for the decoder); in chunks of
        `interrupt_tokens`, each after a look at the call's `interrupt` event, when it has one."""
        if not tokens:
            return
        if len(self._tokens) + len(tokens) > self.n_ctx:
            raise ContextOverflow(f"the context of {self.n_ctx} tokens is full")
        step = self.interrupt_tokens if self._interrupt is not None else len(tokens)
        for start in range(0, len(tokens), step):
            if self._interrupt is not None and self._interrupt.is_set():
                raise Interrupted()
            chunk = tokens[start : start + step]
            self._llm.n_tokens = len(self._tokens)
            try:
                self._llm.eval(chunk)
            except RuntimeError as exc:
                self._C.llama_memory_clear(self._mem, True)
                self._tokens = []
                self._llm.n_tokens = 0
                raise LLMError(f"llama.cpp decode failed: {exc}") from None
            self._tokens.extend(chunk)
            self._fed += len(chunk)

    def logits(self) -> np.ndarray:
        ptr = self._C.llama_get_logits_ith(self._ctx, -1)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))

    def _state_op(self, op: Callable[..., T], *args: Any) -> T:
        """Run a prefix state save/restore, adding its time to the call's `state_ms`."""
        started = time.perf_counter()
        try:
            return op(*args)
        finally:
            self._state_ms += (time.perf_counter() - started) * 1000.0

    def _save(self, role: str, prefix: list[int]) -> None:
        C = self._C
        size = C.llama_state_seq_get_size(self._ctx, 0)
        buf = (ctypes.c_uint8 * size)()
        n = C.llama_state_seq_get_data(self._ctx, buf, size, 0)
        if n <= 0:
            log.warning("could not save the %s prefix state", role)
            return
        self.prefix_cache.put(role, prefix, memoryview(buf)[:n])  # written as it is, no copy

    def _restore(self, saved: SavedPrefix) -> bool:
        C = self._C
        data = saved.load()
        if data is None:
            return False
        C.llama_memory_clear(self._mem, True)
        buf = (ctypes.c_uint8 * len(data)).from_buffer(data)  # llama.cpp reads the loaded bytes in place
        if C.llama_state_seq_set_data(self._ctx, buf, len(data), 0) <= 0:
            C.llama_memory_clear(self._mem, True)
            self._tokens = []
            self._llm.n_tokens = 0
            log.warning("could not restore the %s prefix state; evaluating the prefix again", saved.role)
            self.prefix_cache.drop(saved)
            return False
        self._tokens = list(saved.tokens)
        self._llm.n_tokens = len(self._tokens)
        self._llm.input_ids[: len(self._tokens)] = self._tokens
        return True

    def reset_context(self) -> None:
        """Forget the KV cache (not the saved prefix states)."""
        with self._lock:
            self._C.llama_memory_clear(self._mem, True)
            self._tokens = []
            self._llm.n_tokens = 0

    def close(self) -> None:
        self._llm.close()


def save_vocab(path: Path, pieces: Sequence[bytes | None], eog: Sequence[int]) -> None:
    """Write a vocabulary's pieces (None: a control token or one without text) and end-of-generation ids."""
    lens = np.array([-1 if p is None else len(p) for p in pieces], dtype=np.int32)
    blob = np.frombuffer(b"".join(p for p in pieces if p), dtype=np.uint8)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as fh:
            np.savez(fh, lens=lens, blob=blob, eog=np.array(eog, dtype=np.int32))
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not keep the vocabulary in %s: %s", path, exc)


def load_vocab(path: Path, n_vocab: int) -> tuple[list[bytes | None] | None, list[int] | None]:
    """`save_vocab`'s pieces and eog ids, or (None, None) when the file is missing, unreadable or not of
    this vocabulary's size (it is then built again)."""
    if not path.is_file():
        return None, None
    try:
        with np.load(path, allow_pickle=False) as data:
            lens, blob, eog = data["lens"], data["blob"].tobytes(), data["eog"].tolist()
        if len(lens) != n_vocab or int(lens[lens > 0].sum()) != len(blob):
            raise ValueError("size mismatch")
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        log.warning("ignoring the cached vocabulary %s: %s", path, exc)
        return None, None
    pieces: list[bytes | None] = []
    pos = 0
    for n in lens.tolist():
        if n < 0:
            pieces.append(None)
        else:
            pieces.append(blob[pos : pos + n] if n else None)
            pos += n
    return pieces, eog
