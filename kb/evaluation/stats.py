"""Statistics and item-quality rules of the three-tier protocol (EVALUATION.md, seed appendix A).

Definitions chosen where the seed is silent: word overlap of two texts is |A ∩ B| / max(|A|, |B|)
over lower-cased word sets (content words, without stop words, for deduplication); character
similarity is difflib's SequenceMatcher ratio.
"""

from __future__ import annotations

import math
import re
from difflib import SequenceMatcher

STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "for", "to", "and", "or", "by", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "this", "that", "these", "those", "it", "its", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "did", "does", "do", "was", "were", "has", "have", "had", "than", "then", "into", "over", "under", "per", "via", "any", "all", "each"]
)
WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)?")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def wilson_interval(successes: int, total: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion; (0, 0) for an empty sample."""
    if total == 0:
        return 0.0, 0.0
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def cohen_kappa(both_pass: int, first_only: int, second_only: int, both_fail: int) -> float:
    """Cohen's kappa of two binary raters from their 2x2 table (NaN when chance agreement is 1)."""
    n = both_pass + first_only + second_only + both_fail
    if n == 0:
        return float("nan")
    observed = (both_pass + both_fail) / n
    first_yes = (both_pass + first_only) / n
    second_yes = (both_pass + second_only) / n
    expected = first_yes * second_yes + (1 - first_yes) * (1 - second_yes)
    return float("nan") if expected == 1 else (observed - expected) / (1 - expected)


def question_count(words: int) -> int:
    """Questions per document: round(10 * words / 8000), bounded to 5..30."""
    return max(5, min(30, round(10 * words / 8000)))


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def content_words(text: str) -> set[str]:
    return words(text) - STOPWORDS


def overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(len(a), len(b)) if a and b else 0.0


def numbers(text: str) -> list[str]:
    return sorted(NUMBER.findall(text))


def mirror_overlap_rejects(gold: str, distractor: str) -> bool:
    """Reject a distractor only when it mirrors the gold option on all three counts."""
    return (
        overlap(words(gold), words(distractor)) >= 0.78
        and numbers(gold) == numbers(distractor)
        and SequenceMatcher(None, gold.lower(), distractor.lower()).ratio() >= 0.75
    )


def near_duplicate(stem_a: str, stem_b: str, quote_a: str = "", quote_b: str = "") -> bool:
    """Cross-document dedup: content-word overlap above 0.65, or the same evidence quote."""
    if quote_a and quote_a == quote_b:
        return True
    return overlap(content_words(stem_a), content_words(stem_b)) > 0.65
