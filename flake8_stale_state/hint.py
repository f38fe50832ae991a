""""Did you mean": the read attribute whose name is close to a dead one, by its words or by a typo."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Collection, Iterable

WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
SHORT = 3  # names of this many letters or fewer are hinted only at a one-letter typo of a name read in the class


@functools.cache  # names repeat across a package's findings
def words_in_order(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in WORD.findall(name))


@functools.cache
def tokens(name: str) -> frozenset[str]:
    return frozenset(words_in_order(name))


def shared_ratio(a: str, b: str) -> float:
    mine, theirs = tokens(a), tokens(b)
    union = mine | theirs
    return len(mine & theirs) / len(union) if union else 0.0


def typo_ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()


def edit_distance(a: str, b: str, transpositions: bool = True) -> int:
    """Damerau-Levenshtein distance (adjacent transpositions count once), or Levenshtein's without them."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
            if transpositions and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]


def is_plural(a: str, b: str) -> bool:
    """One word the plural of the other: `step`/`steps`, `box`/`boxes`, `entry`/`entries`."""
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 2 and longer in (shorter + "s", shorter + "es", shorter[:-1] + "ies")


TYPO_LENGTH = 5  # a word shorter than this is another word a letter away (`fset`, `fget`; `beta`, `zeta`)


def is_typo(a: str, b: str) -> bool:
    """One word misspelt as another by a letter (`recieve`, `receive`), or made plural (`step`, `steps`)."""
    return is_plural(a, b) or (min(len(a), len(b)) >= TYPO_LENGTH and edit_distance(a, b) == 1)


def keeps_order(name: str, candidate: str) -> bool:
    """The words of `name` stand in `candidate` in the same order (a dropped word moves no other)."""
    remaining = iter(words_in_order(candidate))
    return all(word in remaining for word in words_in_order(name))


def drops_a_word(name: str, candidate: str) -> bool:
    """`name` is `candidate` with one word dropped, the others in order: `checkpoint_interval` of
    `activation_checkpoint_interval`."""
    mine, theirs = tokens(name), tokens(candidate)
    return mine < theirs and len(theirs - mine) == 1 and keeps_order(name, candidate)


def is_close(name: str, candidate: str) -> bool:
    """The shapes a drift takes from the name readers use: the same letters with other underscores or case
    (`_reason`, `reason`; `spacebefore`, `spaceBefore`; not the same words in another order, which name
    another thing: `is_change_owner`, `is_owner_change`), and with the same privacy: a word dropped of two or more
    (`checkpoint_interval`, `activation_checkpoint_interval`), or one word misspelt or made plural
    (`total_step`, `total_steps`). A write with a word more than the read, another word in place of one (`mp`
    for `dp`), or one word where readers use two (`secret`, `salted_secret`) names something else."""
    mine, theirs = tokens(name), tokens(candidate)
    if not mine or not theirs:
        return False
    if "".join(words_in_order(name)) == "".join(words_in_order(candidate)):
        return True
    if len(name) - len(name.lstrip("_")) != len(candidate) - len(candidate.lstrip("_")):
        return False  # another privacy and other words: two changes (`_neighbors`, `neighbor`)
    if drops_a_word(name, candidate):
        return len(mine) >= 2
    differing_mine, differing_theirs = mine - theirs, theirs - mine
    return (len(mine) == len(theirs) and len(differing_mine) == 1 and len(differing_theirs) == 1
            and is_typo(next(iter(differing_mine)), next(iter(differing_theirs))))


def shares_half(name: str, candidate: str) -> bool:
    """Half the words of each name or more in common (`end_time`, `end_event`): a likeness too weak alone,
    enough with the evidence of the reader side of a drift."""
    mine, theirs = tokens(name), tokens(candidate)
    shared = {word for word in mine & theirs if len(word) >= SHORT}
    return bool(shared) and 2 * len(shared) >= len(mine) and 2 * len(shared) >= len(theirs)


def is_respelling(name: str, other: str) -> bool:
    """The same words in the other naming convention, each whole or its start of three letters or more:
    `setComment` for `set_comment`, `increasePrio` for `increase_priority`, `top_priority` for `topPrio`."""
    mine, theirs = words_in_order(name), words_in_order(other)
    camel, snake = sorted((name.strip("_"), other.strip("_")), key=lambda spelt: "_" in spelt)
    return ("_" not in camel and camel != camel.lower() and "_" in snake and snake == snake.lower()
            and len(mine) == len(theirs) >= 2
            and all(a == b or min(len(a), len(b)) >= SHORT and (a.startswith(b) or b.startswith(a))
                    for a, b in zip(mine, theirs)))


ACCESSOR_VERBS = frozenset({"get", "set"})
SETTER_WORDS = frozenset({"set", "setter"})


def is_accessor(name: str, candidate: str, verbs: frozenset[str] = ACCESSOR_VERBS) -> bool:
    """`_get_range` for `_range`: the name of what reads or sets the attribute, no other name for it."""
    mine, theirs = tokens(name), tokens(candidate)
    return mine < theirs and theirs - mine <= verbs


def is_setter(method: str, name: str) -> bool:
    """`set_volume`, `volume_setter`, `setVolume` for `volume`: the method that stores that value."""
    return is_accessor(name, method, SETTER_WORDS)


def is_short(name: str) -> bool:
    return len(name.strip("_")) <= SHORT


def closest(name: str, candidates: Iterable[str], same_class: Collection[str] = (),
            likeness: Callable[[str, str], bool] = is_close) -> str | None:
    """Most shared words first, then fewest differing characters, then alphabetical; None if none is alike.

    A short name (`lr`, `n`) is hinted only at a one-letter typo of a name read in `same_class`: a letter added,
    dropped or replaced, not two swapped, which in two or three letters moves most of the name (`of`, `fo`)."""
    best = None
    short = is_short(name)
    if short and len(name.strip("_")) < 2:
        return None  # every letter is a typo of every other
    for candidate in set(candidates) - {name}:
        if is_accessor(name, candidate):
            continue
        if short:
            if candidate not in same_class or edit_distance(name, candidate, transpositions=False) != 1:
                continue
        elif not likeness(name, candidate):
            continue
        key = (-shared_ratio(name, candidate), -typo_ratio(name, candidate), candidate)
        if best is None or key < best:
            best = key
    return best[2] if best else None
