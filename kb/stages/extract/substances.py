"""Substance names the lexicon does not contain: systematic names, formulas and compound codes.

These rules are what makes extraction generalise: a new intermediate ('tert-butyl 7-bromo-9-cyano-
...-carboxylate', 'compound 12a', 'RA-X35', 'c-PrB(OH)2') is found by its shape, not by a list.
"""

from __future__ import annotations

import re

from kb.stages.extract.mentions import KIND_CLASSES
from kb.stages.extract.spans import Candidate

SUBSTANCE = KIND_CLASSES["substance"]

ELEMENTS = frozenset({
    "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K",
    "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr",
    "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe",
    "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf",
    "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi",
})
# organic group abbreviations chemists write inside formulas (Et3N, c-PrB(OH)2, PhMgBr)
GROUPS = {"Me", "Et", "Pr", "Bu", "Ph", "Ac", "Bn", "Bz", "Ts", "Ms", "Tf", "Boc", "Cbz", "Py", "Cy", "Ar", "pin", "OAc", "OTf"}
_FORMULA_PIECE = re.compile(r"(Boc|Cbz|OAc|OTf|pin|[A-Z][a-z]?)(\d*)")
_FORMULA = re.compile(
    r"(?<![\w-])(?:(?:[nistc]|sec|tert|\d)-)?(?:\d-)?"
    r"(?:(?:[A-Z][a-z]?|Boc|Cbz|pin)\d*|\((?:(?:[A-Z][a-z]?)\d*)+\)\d*|-)+"
    r"(?:[·.](?:\d*)(?:[A-Z][a-z]?\d*)+)?(?![\w])"
)

# words made only of chemical morphemes; a name must carry at least one strong stem
STRONG_STEMS = (
    "methyl", "ethyl", "propyl", "butyl", "pentyl", "hexyl", "phenyl", "benzyl", "aryl", "vinyl", "allyl",
    "chloro", "bromo", "fluoro", "iodo", "nitro", "amino", "hydroxy", "methoxy", "ethoxy", "cyano",
    "carbonyl", "carboxyl", "carboxylate", "carbonitrile", "carbamate", "carbamoyl", "carboxamide",
    "pyrid", "pyrimidin", "pyrazin", "pyrazol", "pyrrol", "imidazol", "oxazol", "oxazepin", "thiazol",
    "triazol", "tetrazol", "indol", "quinolin", "piperidin", "piperazin", "morpholin", "furan", "thiophen",
    "benzo", "naphth", "nicotin", "oxime", "aldehyde", "nitrile", "boronic", "sulfonyl", "sulfonamide",
    "oxy", "dione", "oate", "oic", "anilin", "phenol", "acetyl", "acetamid", "formyl", "trifluoro",
    "difluoro", "dichloro", "dibromo", "dimethyl", "trimethyl", "tetrahydro", "dihydro", "hydrochloride",
    "oxo", "ethan", "propan", "butan", "cyclo", "amine", "amide", "anhydride", "azepin", "oxazin",
)
_STEM = re.compile("|".join(sorted(STRONG_STEMS, key=len, reverse=True)))
STOP_WORDS = {
    "preparation", "operation", "temperature", "information", "separation", "concentration",
    "examine", "determine", "combined", "carbonate", "formation", "oxidation", "reduction",
}
_NAME_WORD = re.compile(r"[A-Za-z0-9,'′\-()\[\]{}α-ωΑ-Ω+]+")
_LOCANT = re.compile(r"(?:^|[\s(\[-])\d+(?:,\d+)*[a-zA-Z]?-|\(\d*[A-Z]?H\)|\[[\d,]+-?[a-z]?\]|^[A-Z]-|^\([EZRS]\)-")
# words that end or extend a name: 'boronic acid', 'pinacol ester', 'oxime', 'hydrochloride'
TAIL_WORDS = {
    "acid", "ester", "oxime", "hydrochloride", "hydrobromide", "mesylate", "tosylate", "salt", "anhydride",
    "chloride", "bromide", "iodide", "hydrate", "monohydrate", "dihydrate", "amide", "carbamate",
}
ALKYL_HEADS = {"methyl", "ethyl", "propyl", "isopropyl", "butyl", "tert-butyl", "t-butyl", "benzyl", "phenyl", "allyl"}

# chemical class nouns that take a compound number: 'compound 7', 'ketone 11', 'intermediate 12a'
CLASS_NOUNS = (
    "compound", "compounds", "intermediate", "product", "aldehyde", "ketone", "oxime", "nitrile", "carbamate",
    "amide", "amine", "ester", "acid", "alcohol", "alkene", "alkyne", "lactone", "lactam", "imine", "enamine",
    "sulfoxide", "sulfone", "sulfonamide", "epoxide", "diol", "triol", "olefin", "boronate", "halide",
    "bromide", "chloride", "iodide", "triflate", "salt", "adduct", "dimer", "substrate", "precursor",
    "diene", "dienophile", "glucal", "donor", "acceptor", "azide", "alkoxide", "phenol", "aniline",
    "ether", "thioether", "urea", "carbonate", "hydrazone", "acetal", "ketal", "enol", "enone", "ylide",
)
# letter codes with a number: 'RA-X35', 'SM-10', 'KX-4471' (equipment tags and IMP- are taken elsewhere)
_CODE = re.compile(r"(?<![\w-])([A-Z]{2,4}-[A-Z]?\d{1,5}[A-Za-z]?)(?![\w-])")
# a code after these words names a document, method or column, not a compound
_NOT_SUBSTANCE_CODE = re.compile(
    r"\b(?:method|procedure|report|document|SOP|specification|programme|program|project|protocol|study|column|"
    r"standard|instrument|reference|ref\.|deck|appendix|form)\s+$",
    re.IGNORECASE,
)
# a code before these words labels a programme, project or GC/HPLC column ('KX-4471 Step 1',
# 'KX-4471 process development', 'DB-624 column'), not a compound; 'RA-X35 synthesis' stays one
_PROJECT_CODE = re.compile(
    r"^\s+(?:[Ss]teps?|[Ss]tages?|programme|program|project|campaign|route|team|process|development|columns?)\b"
)
_SALT_TAIL = re.compile(
    r"^(?:\s+free\s+base|\s+(?:hydrochloride|hydrobromide|mesylate|tosylate|besylate|sulfate|maleate|fumarate|tartrate|citrate)(?:\s+salt)?|·HCl|\.HCl|\s+HCl\s+salt|\s+HCl|\s+salt)"
)


def formulas(text: str) -> list[Candidate]:
    """Molecular formulas and formula-like reagent notations: CH3CN, K2CO3, c-PrB(OH)2, NH2OH·HCl."""
    out: list[Candidate] = []
    for match in _FORMULA.finditer(text):
        span = match.group().strip("-")
        start = match.start() + match.group().index(span) if span else match.start()
        if len(span) < 2 or not _formula_ok(span):
            continue
        out.append(Candidate(start, start + len(span), "substance", SUBSTANCE, "substance.formula", 2))
    return out


def _formula_ok(span: str) -> bool:
    core = re.sub(r"^(?:[nistc]|sec|tert|\d)-", "", span)
    symbols = [sym for sym, _ in _FORMULA_PIECE.findall(core)]
    if "".join(symbols) != re.sub(r"[^A-Za-z]", "", core):
        return False
    if any(s not in ELEMENTS and s not in GROUPS for s in symbols):
        return False
    if not any(s in ELEMENTS for s in symbols):
        return False
    has_digit = any(ch.isdigit() for ch in core)
    two_letter = any(len(s) == 2 and s in ELEMENTS for s in symbols)
    # a bare run of capitals (HPLC, CSTR, CPP) is an acronym, not a formula
    return len(symbols) >= 2 and (has_digit or two_letter or "(" in core)


def codes(text: str, reserved: tuple[str, ...] = ()) -> list[Candidate]:
    """Compound and drug codes ('RA-X35', 'KX-4471'), extended by a salt form ('KX-4471·HCl')."""
    out: list[Candidate] = []
    for match in _CODE.finditer(text):
        code = match.group(1)
        if code.split("-")[0] in reserved or _NOT_SUBSTANCE_CODE.search(text[max(0, match.start() - 30) : match.start()]):
            continue
        end = match.end()
        if _PROJECT_CODE.match(text[end:]):
            continue
        tail = _SALT_TAIL.match(text[end:])
        if tail:
            end += tail.end()
        out.append(Candidate(match.start(), end, "substance", SUBSTANCE, "substance.code", 2))
    return out


def _is_name_word(word: str) -> bool:
    core = word.strip("()[],'")
    lower = core.lower()
    if len(core) < 5 or lower in STOP_WORDS or not re.search(r"[a-z]{3}", core):
        return False
    stems = len({m.group() for m in _STEM.finditer(lower)})
    if not stems:
        return False
    # plain English words containing a stem ('cyclone', 'oxygenated') need a locant or two stems
    return bool(_LOCANT.search(core)) or stems >= 2 or "-" in core or lower.endswith(("ine", "yl", "ide", "ate", "ile", "one", "ole", "ol"))


def systematic_names(text: str) -> list[Candidate]:
    """Systematic and semi-systematic names, joined across spaces when the parts belong together."""
    words = [(m.start(), m.end(), m.group()) for m in _NAME_WORD.finditer(text)]
    out: list[Candidate] = []
    i = 0
    while i < len(words):
        start, end, word = words[i]
        word_start, word_end = _strip_unbalanced(text, start, end)
        word = text[word_start:word_end]
        head_alkyl = word.lower() in ALKYL_HEADS and i + 1 < len(words) and _is_name_word(words[i + 1][2])
        if not (_is_name_word(word) or head_alkyl):
            i += 1
            continue
        span_start, span_end = word_start, word_end
        j = i + 1
        while j < len(words) and text[span_end : words[j][0]].strip() == "":
            nxt_s, nxt_e = _strip_unbalanced(text, words[j][0], words[j][1])
            nxt = text[nxt_s:nxt_e]
            if not nxt or nxt_s != words[j][0]:
                break
            if _is_name_word(nxt) or nxt.lower() in TAIL_WORDS or (nxt.lower() == "pinacol" and j + 1 < len(words)):
                span_end = nxt_e
                j += 1
                continue
            break
        if _is_whole_name(text[span_start:span_end]) and not _PART_OF_STRUCTURE.match(text[span_end:]):
            out.append(Candidate(span_start, span_end, "substance", SUBSTANCE, "substance.systematic", 1))
        i = j
    return out


# 'the oxazepine ring system', 'the pyridine core': a name before these words is part of a structure
_PART_OF_STRUCTURE = re.compile(r"\s+(?:ring|rings|moiety|core|scaffold|skeleton|substituent|group|unit|fragment)\b", re.IGNORECASE)
SUBSTITUENT_ENDINGS = ("fluoro", "chloro", "bromo", "iodo", "nitro", "amino", "hydroxy", "methoxy", "ethoxy", "cyano", "oxo", "yl", "-")


def _is_whole_name(name: str) -> bool:
    """Reject a bare substituent ('2-fluoro') or a lone class noun ('the nitrile', 'hydrochloride salt')."""
    words = name.lower().split()
    if len(words) == 1 and (words[0].endswith(SUBSTITUENT_ENDINGS) or words[0] in CLASS_NOUNS or words[0] in TAIL_WORDS):
        return False
    return not (words[0] in TAIL_WORDS or words[0] in CLASS_NOUNS)


_CLOSER = {"(": ")", "[": "]", "{": "}"}


def _encloses(piece: str) -> bool:
    """True when the first bracket closes at the last character: '(ethanol)', not '(E)-oxime' or '(2-x)carbamate'."""
    if len(piece) < 2 or piece[0] not in _CLOSER or piece[-1] != _CLOSER[piece[0]]:
        return False
    depth = 0
    for i, ch in enumerate(piece):
        depth += (ch == piece[0]) - (ch == piece[-1])
        if depth == 0:
            return i == len(piece) - 1
    return False


def _strip_unbalanced(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop trailing punctuation and brackets a sentence wrapped around a name ('Volume (ethanol)')."""
    changed = True
    while changed and end > start:
        changed = False
        piece = text[start:end]
        if _encloses(piece):
            start, end = start + 1, end - 1
            changed = True
        elif piece[-1] in ",'" or (piece[-1] in ")]}" and piece.count(piece[-1]) > piece.count({")": "(", "]": "[", "}": "{"}[piece[-1]])):
            end -= 1
            changed = True
        elif piece[0] in "([{" and piece.count(piece[0]) > piece.count({"(": ")", "[": "]", "{": "}"}[piece[0]]):
            start += 1
            changed = True
    return start, end


def salt_extensions(text: str, base: list[Candidate]) -> list[Candidate]:
    """'X hydrochloride', 'X free base', 'X·HCl' as one substance (a salt is not its free base)."""
    out: list[Candidate] = []
    for cand in base:
        tail = _SALT_TAIL.match(text[cand.end :])
        if tail and cand.rule != "substance.code":
            out.append(Candidate(cand.start, cand.end + tail.end(), "substance", SUBSTANCE, cand.rule + "+salt", cand.priority))
    return out


# a number before a unit is a quantity ('a cake height of 26 cm'), never a compound label
_LABEL = re.compile(
    r"(?<![\w.,/-])((?:\((?:[RSEZ]|[+±-])\)-)?(?:\d{1,3}[a-z]{1,2}|\d{1,3}))(?![\w.,/]*\d)(?![\w'′-])"
    r"(?!\s*(?:%|°|º|equiv|eq\b|mol|mmol|h\b|hr|min|s\b|mg|g\b|kg|mL|L\b|M\b|N\b|vol|V\b|K\b|bar|mbar|atm|psi|ppm|wt|"
    r"cm\b|mm\b|µm|μm|nm\b|m\b|m2|m²|m3|m³|rpm|Hz|kW|W\b|[:x×]))"
)
_LABEL_LEFT = re.compile(
    r"(?:\bgave|\bgive|\bgiving|\bafford(?:ed|s|ing)?|\bfurnish(?:ed|es|ing)?|\bprovid(?:ed|es|ing)|\byield(?:ed|s|ing)?|"
    r"\bof|\bwith|\band|,|\bcompounds?|\bproducts?|\bsubstrates?|\bconvert(?:ed|s)?\s+to|\binto)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_NOT_LABEL_LEFT = re.compile(
    r"\b(?:entry|entries|table|tables|scheme|figure|fig\.|ref\.|refs\.|step|steps|stage|version|section|page|run|runs|"
    r"equation|eq\.|batch|lot|cycle|day|days|of\s+the|pH)\s+(?:\d{1,3}[a-z]?\s*(?:,|and|-|–)\s*)*$",
    re.IGNORECASE,
)


def labels(text: str) -> list[Candidate]:
    """Bare compound labels ('2a', '(R)-16', 'gave 15'): numbered compounds as the literature writes them."""
    out: list[Candidate] = []
    for m in _LABEL.finditer(text):
        label, left = m.group(1), text[max(0, m.start() - 40) : m.start()]
        if _NOT_LABEL_LEFT.search(left):
            continue
        if label[-1].isdigit() and not _LABEL_LEFT.search(left):
            continue
        out.append(Candidate(m.start(), m.end(), "substance", SUBSTANCE, "substance.label", 1))
    return out


_TRADE_NAME = re.compile(r"(?<![\w-])([A-Z][a-z]+[A-Z][A-Za-z]*)(?:\s([A-Z][a-z]{2,}|[A-Z]{2,3}))?(?![\w-])")
_NOT_TRADE_TAIL = {"The", "This", "These", "Step", "Stage", "In", "At", "And", "Was", "Were", "After", "Then", "Table", "Lot", "Batch"}


def trade_names(text: str) -> list[Candidate]:
    """Reagent trade names written in camel case ('SiliaMetS Thiol', 'QuadraSil MP')."""
    out: list[Candidate] = []
    for m in _TRADE_NAME.finditer(text):
        if len(m.group(1)) < 6:
            continue
        end = m.end(2) if m.group(2) and m.group(2) not in _NOT_TRADE_TAIL else m.end(1)
        out.append(Candidate(m.start(), end, "substance", SUBSTANCE, "substance.trade_name", 1))
    return out
