"""Progress bars for long CLI work (tqdm on stderr)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress_bar(label: str) -> Callable[[Iterable[T], int], Iterator[T]]:
    """A wrapper that shows a bar labelled ``label`` while iterating."""

    def wrap(items: Iterable[T], total: int) -> Iterator[T]:
        yield from tqdm(items, total=total, desc=label, unit="file", leave=False)

    return wrap
