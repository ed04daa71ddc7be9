"""The optional LLM pass keeps only proposals that quote the chunk verbatim (fake backend)."""

from __future__ import annotations

from kb.stages.extract.llm_assist import assist, locate
from kb.stages.extract.mentions import Chunk
from kb.stages.extract.pipeline import extract_chunk


class ScriptedBackend:
    """Stands in for a remote model: replies with fixed JSON lines."""

    name = "scripted"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    def complete(self, messages: list[dict[str, str]], *, max_tokens: int) -> str:
        self.prompts.append(messages[-1]["content"])
        return self.reply


def test_only_verbatim_proposals_survive() -> None:
    chunk = Chunk("urn:c", "The filtrate was treated with Smopex  234 and THF.")
    proposals = (
        '{"text": "Smopex 234", "kind": "substance"}',  # verbatim after whitespace normalisation
        '{"text": "Smopex 235", "kind": "substance"}',  # not in the text
        '{"text": "THF", "kind": "substance"}',  # already found by the rules
        '{"text": "filtrate", "kind": "mood"}',  # unknown kind
        "not json",
    )
    reply = "".join(line + "\n" for line in proposals)
    backend = ScriptedBackend(reply)
    result = assist(chunk, extract_chunk(chunk), backend)
    assert [(m.text, m.rule, m.start, m.end) for m in result.accepted] == [("Smopex  234", "llm.scripted", 30, 41)]
    assert result.dropped == 4
    assert "THF" in backend.prompts[0]


def test_locate_needs_word_boundaries() -> None:
    assert locate("MeTHF and THF", "THF") == (10, 13)
    assert locate("no match here", "THF") is None
