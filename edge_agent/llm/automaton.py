"""A constraint's regex as a byte automaton, and the model's vocabulary walked through it: what the decode loop
(`llm.decoding`) allows at each step.

- The regex is compiled once (cached per regex, `automaton_for`) into a byte-level DFA by `outlines_core.Index`
  over a 256-entry byte vocabulary, stored as a dense numpy table (`ByteAutomaton`), with each state's fewest
  bytes to a final state and the character budgets of its free-text loops.
- The model's vocabulary (token id → bytes, `TokenTable`) is walked through that DFA *lazily*: the first time the
  decoder stands in a DFA state, all tokens are pushed through the table at once (numpy), giving each allowed
  token's next state and its cost (characters it spends in a free-text loop): `StateInfo`. Only states the
  decoder visits are ever computed, so the index stays small even for 260k-token vocabularies.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from outlines_core import Index, Vocabulary

from edge_agent.llm.base import Constraint
from edge_agent.llm.lru import LRU

_BYTE_VOCAB: Vocabulary | None = None
_EOS = 256


def _byte_vocabulary() -> Vocabulary:
    global _BYTE_VOCAB
    if _BYTE_VOCAB is None:
        _BYTE_VOCAB = Vocabulary(_EOS, {bytes([b]): [b] for b in range(256)})
    return _BYTE_VOCAB


class ByteAutomaton:
    """The byte-level DFA of one regex: `table[state, byte] -> state` (`dead` where refused)."""

    def __init__(
        self, regex: str, limits: Sequence[tuple[str, int]] = (), default_limit: int = 200, shared: Sequence[str] = ()
    ):
        #: per model vocabulary (TokenTable), the token walk of each visited state (see TokenTable.state_info)
        self.token_states: weakref.WeakKeyDictionary[TokenTable, dict[int, StateInfo]] = weakref.WeakKeyDictionary()
        index = Index(regex, _byte_vocabulary())
        transitions = index.get_transitions()
        ids = set(transitions)
        for row in transitions.values():
            ids.update(row.values())
        ids.add(index.get_initial_state())
        order = {sid: i for i, sid in enumerate(sorted(ids))}
        self.n_states = len(order)
        self.dead = self.n_states
        table = np.full((self.n_states + 1, 256), self.dead, dtype=np.int32)
        for sid, row in transitions.items():
            for byte, nxt in row.items():
                if byte < 256:
                    table[order[sid], byte] = order[nxt]
        self.table = table
        self.initial = order[index.get_initial_state()]
        self.final = np.zeros(self.n_states + 1, dtype=bool)
        for sid in index.get_final_states():
            if sid in order:
                self.final[order[sid]] = True
        self.has_out = (table[: self.n_states] != self.dead).any(axis=1).tolist() + [False]
        self._forced: dict[int, bytes] = {}
        self._init_limits(limits, default_limit, shared)
        self.dist = self._distances()

    def _distances(self) -> np.ndarray:
        """Fewest bytes from each state to a final state (a bound on the tokens still needed)."""
        n, table, dead = self.n_states, self.table, self.dead
        big = np.iinfo(np.int32).max // 2
        dist = np.full(n + 1, big, dtype=np.int32)
        preds: list[list[int]] = [[] for _ in range(n + 1)]
        for s in range(n):
            for t in set(table[s][table[s] != dead].tolist()):
                preds[t].append(s)
        frontier = [s for s in range(n) if self.final[s]]
        for s in frontier:
            dist[s] = 0
        while frontier:
            nxt = []
            for t in frontier:
                for s in preds[t]:
                    if dist[s] > dist[t] + 1:
                        dist[s] = dist[t] + 1
                        nxt.append(s)
            frontier = nxt
        return dist

    # -- structure ---------------------------------------------------------------------------
    def walk(self, state: int, data: bytes) -> int:
        table, dead = self.table, self.dead
        for byte in data:
            state = int(table[state, byte])
            if state == dead:
                return dead
        return state

    def forced(self, state: int) -> bytes:
        """The bytes every continuation from `state` must start with (up to the next choice)."""
        cached = self._forced.get(state)
        if cached is not None:
            return cached
        out = bytearray()
        cur = state
        while not self.final[cur] and len(out) < 256:
            nxt = np.flatnonzero(self.table[cur] != self.dead)
            if len(nxt) != 1:
                break
            out.append(int(nxt[0]))
            cur = int(self.table[cur, nxt[0]])
        self._forced[state] = bytes(out)
        return self._forced[state]

    def _init_limits(self, limits: Sequence[tuple[str, int]], default_limit: int, shared: Sequence[str] = ()) -> None:
        """Find the free-text loops, their 'inner' states (mid-character, after a backslash) and budgets;
        `slot[loop]` is the loop whose budget it spends (itself, or a `shared` probe's loop)."""
        n, table, dead = self.n_states, self.table, self.dead
        idx = np.arange(n)
        loops = [s for s in idx.tolist() if (table[s] == s).any()]
        self.limit = np.zeros(n + 1, dtype=np.int32)  # 0: not a budgeted loop
        self.field = np.full(n + 1, -1, dtype=np.int32)  # the loop a state belongs to (itself or inner)
        self.counts = np.zeros((n + 1, 256), dtype=np.int16)  # 1 where a byte spends one character
        for loop in loops:
            self.limit[loop] = default_limit
        for probe, chars in limits:
            state = self.walk(self.initial, probe.encode("utf-8"))
            if state != dead and state in loops:
                self.limit[state] = chars
        self.slot = np.arange(n + 1, dtype=np.int32)
        for loop in loops:
            inner = self._inner_states(loop)
            for s in inner:
                if self.field[s] < 0:
                    self.field[s] = loop
            self.field[loop] = loop
            ok = np.zeros(n + 1, dtype=bool)
            ok[loop] = True
            ok[list(inner)] = True
            self.counts[loop] = ok[table[loop]].astype(np.int16)
        for probe in shared:  # one budget for the text after the probe: a byte typed in any of its loops
            state = self.walk(self.initial, probe.encode("utf-8"))  # that stays in free text costs one
            if state == dead or state not in loops:
                continue
            region = self._reachable(state)
            group = region & set(loops)
            free = self._reaching(group, region)  # states from which free text goes on
            inside = np.zeros(n + 1, dtype=bool)
            inside[list(free)] = True
            for s in free:  # mid-literal and mid-escape states spend nothing, so they can always finish
                self.field[s] = self.slot[s] = state
            for loop in group:
                self.counts[loop] = inside[table[loop]].astype(np.int16)

    def _reachable(self, state: int) -> set[int]:
        table, dead = self.table, self.dead
        seen, frontier = {state}, [state]
        while frontier:
            s = frontier.pop()
            for x in set(table[s][table[s] != dead].tolist()):
                if x not in seen:
                    seen.add(x)
                    frontier.append(x)
        return seen

    def _reaching(self, targets: set[int], within: set[int]) -> set[int]:
        """The states of `within` from which some state of `targets` can be reached."""
        table, dead = self.table, self.dead
        preds: dict[int, set[int]] = {}
        for s in within:
            for x in set(table[s][table[s] != dead].tolist()):
                preds.setdefault(x, set()).add(s)
        seen, frontier = set(targets), list(targets)
        while frontier:
            for p in preds.get(frontier.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    frontier.append(p)
        return seen

    def _inner_states(self, loop: int, depth: int = 6) -> set[int]:
        """States entered from `loop` that return to it on every path within `depth` bytes."""
        table, dead = self.table, self.dead
        memo: dict[tuple[int, int], bool] = {}

        def returns(s: int, d: int) -> bool:
            if s == loop:
                return True
            if d == 0 or self.final[s] or s == dead:
                return False
            key = (s, d)
            if key not in memo:
                succ = set(table[s][table[s] != dead].tolist())
                memo[key] = bool(succ) and all(returns(x, d - 1) for x in succ)
            return memo[key]

        firsts = set(table[loop][table[loop] != dead].tolist()) - {loop}
        inner: set[int] = set()
        frontier = [s for s in firsts if returns(s, depth)]
        while frontier:
            s = frontier.pop()
            if s in inner or s == loop:
                continue
            inner.add(s)
            frontier.extend(x for x in set(table[s][table[s] != dead].tolist()) if x != loop and x not in inner)
        return inner


_AUTOMATA: LRU[ByteAutomaton] = LRU(32)


def automaton_for(constraint: Constraint) -> ByteAutomaton:
    """The compiled automaton of a constraint (the 32 most recently used are kept, per regex and budgets)."""
    limits = tuple(getattr(constraint, "limits", ()))
    default_limit = int(getattr(constraint, "default_limit", 200))
    shared = tuple(getattr(constraint, "shared", ()))
    return _AUTOMATA.get_or_make(
        (constraint.regex, limits, default_limit, shared),
        lambda: ByteAutomaton(constraint.regex, limits, default_limit, shared),
    )


class TokenTable:
    """A model's vocabulary as bytes, ready to be walked through any automaton at once."""

    def __init__(
        self,
        pieces: Sequence[bytes | None],
        eog_ids: Sequence[int],
        n_vocab: int,
        tokenize: Callable[[bytes], list[int]] | None = None,
    ):
        self.n_vocab = n_vocab
        self.pieces = list(pieces)
        self.eog_ids = np.array(sorted(set(eog_ids)), dtype=np.int32)
        usable = [i for i, p in enumerate(pieces) if p]
        data = [pieces[i] or b"" for i in usable]  # the pieces that have bytes
        self.ids = np.array(usable, dtype=np.int32)
        lens = np.fromiter((len(p) for p in data), dtype=np.int32, count=len(usable))
        self.max_len = int(lens.max())
        # every piece's bytes in one row, left-aligned (filled in one scatter, not row by row)
        flat = np.frombuffer(b"".join(data), dtype=np.uint8)
        rows = np.repeat(np.arange(len(usable)), lens)
        cols = np.arange(flat.size) - np.repeat(np.cumsum(lens) - lens, lens)
        mat = np.zeros((len(usable), self.max_len), dtype=np.uint8)
        mat[rows, cols] = flat
        self.mat = mat
        self.lens = lens
        # int32 like `ids`: half the memory of flatnonzero's int64 (15 MB for a 262k vocabulary)
        self.rows_by_pos = [np.flatnonzero(lens > k).astype(np.int32) for k in range(self.max_len)]
        self._by_bytes: dict[bytes, int] | None = None  # `by_bytes`, built when first needed
        self._tokenize = tokenize
        self._lock = threading.Lock()

    @property
    def by_bytes(self) -> dict[bytes, int]:
        """Each piece's first token id, for spelling bytes the model's tokenizer does not round-trip.
        Built on first use: for a 262k-token vocabulary it holds ~17 MB that most runs never need."""
        if self._by_bytes is None:
            with self._lock:
                if self._by_bytes is None:
                    by_bytes: dict[bytes, int] = {}
                    for i in self.ids.tolist():
                        by_bytes.setdefault(self.pieces[i], i)
                    self._by_bytes = by_bytes
        return self._by_bytes

    def tokens_for(self, data: bytes) -> list[int]:
        """Token ids spelling exactly `data` (the model's own tokenization when it round-trips)."""
        if self._tokenize is not None:
            ids = self._tokenize(data)
            if ids and b"".join(self.pieces[i] or b"\xff\xff" for i in ids) == data:
                return ids
        out, pos, by_bytes = [], 0, self.by_bytes
        while pos < len(data):  # greedy longest match; every byte-level vocabulary has single bytes
            for end in range(min(len(data), pos + self.max_len), pos, -1):
                tid = by_bytes.get(data[pos:end])
                if tid is not None:
                    out.append(tid)
                    pos = end
                    break
            else:
                raise ValueError(f"the vocabulary cannot spell {data[pos : pos + 8]!r}")
        return out

    def state_info(self, auto: ByteAutomaton, state: int) -> StateInfo:
        """The tokens allowed in `state` of `auto` (computed on first visit, kept with the automaton,
        so they go when the automaton leaves the cache)."""
        with self._lock:
            infos = auto.token_states.setdefault(self, {})
        info = infos.get(state)
        if info is None:
            info = infos[state] = self._walk_all(auto, state)
        return info

    def _walk_all(self, auto: ByteAutomaton, state: int) -> StateInfo:
        table, counts, dead = auto.table, auto.counts, auto.dead
        cur = np.full(len(self.ids), state, dtype=np.int32)
        cost = np.zeros(len(self.ids), dtype=np.int32)
        for k, rows in enumerate(self.rows_by_pos):
            if not len(rows):
                break
            pre = cur[rows]
            col = self.mat[rows, k]
            cost[rows] += counts[pre, col]
            cur[rows] = table[pre, col]
        ok = cur != dead
        ids, nxt, cost = self.ids[ok], cur[ok], cost[ok]
        order = np.argsort(ids)
        ids, nxt, cost = ids[order], nxt[order], cost[order]
        if auto.final[state] and len(self.eog_ids):
            ids = np.concatenate([ids, self.eog_ids])
            nxt = np.concatenate([nxt, np.full(len(self.eog_ids), state, dtype=np.int32)])
            cost = np.concatenate([cost, np.zeros(len(self.eog_ids), dtype=np.int32)])
            order = np.argsort(ids, kind="stable")
            ids, nxt, cost = ids[order], nxt[order], cost[order]
        mask = np.zeros(self.n_vocab, dtype=bool)
        mask[ids] = True
        need = auto.dist[nxt]
        return StateInfo(
            ids=ids,
            next=nxt,
            cost=cost,
            mask=mask,
            max_cost=int(cost.max()) if len(cost) else 0,
            need=need,
            max_need=int(need.max()) if len(need) else 0,
        )


@dataclass
class StateInfo:
    ids: np.ndarray  # allowed token ids, sorted
    next: np.ndarray  # the DFA state after each
    cost: np.ndarray  # characters each spends in a budgeted loop
    mask: np.ndarray  # bool over the vocabulary
    max_cost: int
    need: np.ndarray  # fewest bytes (>= tokens) still needed after each token
    max_need: int
