""""Did you mean": the read attribute whose name is closest to a dead one."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Collection, Iterable

WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
TYPO_CUTOFF = 0.85  # difflib ratio: one character off in a name of seven
SHARED_CUTOFF = 2 / 3  # two thirds of the two names' words in common


@functools.cache  # names repeat across a package's findings
def tokens(name: str) -> frozenset[str]:
    return frozenset(w.lower() for w in WORD.findall(name))


def shared_ratio(a: str, b: str) -> float:
    mine, theirs = tokens(a), tokens(b)
    union = mine | theirs
    return len(mine & theirs) / len(union) if union else 0.0


def typo_ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()


class NameMatcher:
    """Finds, among many names, the one closest to a given name."""

    def __init__(self, names: Collection[str]) -> None:
        self.by_token: dict[str, set[str]] = {}
        self.one_word: dict[int, list[str]] = {}  # length -> names of a single word
        for name in names:
            words = tokens(name)
            for token in words:
                self.by_token.setdefault(token, set()).add(name)
            if len(words) == 1:
                self.one_word.setdefault(len(name), []).append(name)

    def candidates(self, name: str) -> Iterable[str]:
        words = tokens(name)
        for token in words:
            yield from self.by_token.get(token, ())
        if len(words) != 1:
            return  # a typo in one word of several keeps the others, so it shares a word: found above
        # a misspelt single word shares none; the ratio is at most 2 * shorter / (sum of lengths), so
        # passing TYPO_CUTOFF bounds the length difference
        spread = int(len(name) * (2 / TYPO_CUTOFF - 1)) + 1
        lengths = range(len(name) - spread, len(name) + spread + 1)
        similar = [n for length in lengths for n in self.one_word.get(length, ())]
        yield from difflib.get_close_matches(name, similar, n=3, cutoff=TYPO_CUTOFF)

    def closest(self, name: str) -> str | None:
        return closest(name, self.candidates(name))


def is_close(name: str, candidate: str, same_class: bool) -> bool:
    """A longer name holding every word of this one, most words shared, or a typo.

    The last needs two words or more outside the class: `data` is in too many names to point anywhere.
    """
    mine, theirs = tokens(name), tokens(candidate)
    if mine and mine <= theirs and (same_class or len(mine) >= 2):
        return True
    if shared_ratio(name, candidate) >= SHARED_CUTOFF:
        return True
    # a typo keeps the shape of the name: `recieve_buffer`, not `q_config` for `_config`
    return len(mine) == len(theirs) and len(mine - theirs) <= 1 and typo_ratio(name, candidate) >= TYPO_CUTOFF


def closest(name: str, candidates: Iterable[str], same_class: bool = False) -> str | None:
    """Most shared words first, then fewest differing characters, then alphabetical; None if none is close."""
    best = None
    for candidate in set(candidates) - {name}:
        if candidate.startswith("__") and candidate.endswith("__") or not is_close(name, candidate, same_class):
            continue
        shared, typo = shared_ratio(name, candidate), typo_ratio(name, candidate)
        key = (-shared, -typo, candidate)
        if best is None or key < best:
            best = key
    return best[2] if best else None
