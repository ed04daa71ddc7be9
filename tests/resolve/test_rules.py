"""Merges in precedence order, guards against chemically invalid merges, category check, naming."""

from __future__ import annotations

import numpy as np
from resolve_fixtures import BASE, make_corpus, two_versions

from kb.resolve.category import split_inconsistent
from kb.resolve.guards import Profile, blocked
from kb.resolve.inputs import LocalMention
from kb.resolve.naming import preferred_label
from kb.resolve.normalise import features
from kb.resolve.pipeline import resolve_corpus
from kb.resolve.rules import Resolution, resolve
from kb.stages.extract.mentions import KIND_CLASSES

NEAR_MISSES = [("THF", "2-MeTHF"), ("3,5-dibromoaniline", "3-bromoaniline"), ("KX-4471 free base", "KX-4471 hydrochloride"),
               ("RA-X35-0042", "RA-X35-0043"), ("(R)-1-phenylethanol", "(S)-1-phenylethanol"), ("THF", "tetrahydrofuran")]


def texts_by_cluster(resolution: Resolution) -> list[set[str]]:
    return [{resolution.mentions[i].text for i in cluster} for cluster in resolution.clusters]


def same_cluster(resolution: Resolution, a: str, b: str) -> bool:
    return any(a in texts and b in texts for texts in texts_by_cluster(resolution))


def identical_vectors(chunks: list[str]) -> dict[str, np.ndarray]:
    """Every chunk gets the same vector: cosine 1.0 for every pair, so only the guards stand in the way."""
    return {c: np.ones(4) / 2.0 for c in chunks}


def test_near_misses_stay_apart_even_when_embeddings_say_merge() -> None:
    resolution = resolve(two_versions(), chunk_vectors=identical_vectors)
    for a, b in NEAR_MISSES[:-1]:
        assert not same_cluster(resolution, a, b), (a, b)
    assert same_cluster(resolution, "THF", "tetrahydrofuran")
    assert "numbers" in {b.guard for b in resolution.blocked}


def test_guards_name_the_reason() -> None:
    def profile(text: str, group: str = "") -> Profile:
        return Profile.of(features(text), group, text)

    assert blocked(profile("KX-4471 free base"), profile("KX-4471·HCl")) == "salt"
    assert blocked(profile("(R)-1-phenylethanol"), profile("(S)-1-phenylethanol")) == "stereo"
    assert blocked(profile("X monohydrate"), profile("X anhydrous")) == "hydrate"
    assert blocked(profile("THF", "substance:tetrahydrofuran"), profile("2-MeTHF", "substance:2-methyltetrahydrofuran")) == "groups"
    assert blocked(profile("lot RA-X35-0042"), profile("lot RA-X35-0043"), strict=True) == "numbers"
    assert blocked(profile("THF"), profile("2-MeTHF")) == ""
    assert blocked(profile("THF"), profile("2-MeTHF"), strict=True) == "numbers"
    shared = [Profile.of(features(t), "", "doc|chunk/0") for t in ("des-bromo impurity", "homocoupling dimer")]
    assert blocked(*shared, strict=True) == "same_chunk"


def test_rules_fire_in_precedence_order() -> None:
    resolution = resolve(two_versions())
    rules = {(m.rule, m.detail) for m in resolution.merges}
    assert ("synonym", "('substance', '', 'substance:2-methyltetrahydrofuran')") in rules
    assert same_cluster(resolution, "compound 7", "nitrile 7")  # compound number
    assert same_cluster(resolution, "5-bromo-2-fluoronicotinonitrile", "compound 7")  # apposition
    assert same_cluster(resolution, "Step 2", "dehydration to nitrile")
    assert same_cluster(resolution, "S3", "Step 3")
    assert same_cluster(resolution, "CDI", "carbonyldiimidazole")
    assert same_cluster(resolution, "water", "H2O")
    promoted = [m for m in resolution.merges if m.rule == "role_promotion"]
    assert len(promoted) == 1 and resolution.mentions[promoted[0].right].text == "solvent"
    assert same_cluster(resolution, "solvent", "THF")


def test_hydrogen_chloride_is_not_hydrochloric_acid() -> None:
    corpus = make_corpus({"d": ("TR-9", "1", [("1 Step 5", "[[HCl|substance]] in [[IPA|substance]] then [[aq. HCl|substance]] and [[hydrochloric acid|substance]] and [[hydrogen chloride|substance]].")])})
    resolution = resolve(corpus)
    assert same_cluster(resolution, "HCl", "hydrogen chloride")
    assert same_cluster(resolution, "aq. HCl", "hydrochloric acid")
    assert not same_cluster(resolution, "HCl", "aq. HCl")


def test_steps_and_compound_numbers_are_scoped_by_programme() -> None:
    corpus = make_corpus({
        "a": ("TR-A", "1", [("1 Step 2", "[[Step 2|planned_process]] of [[KX-4471|substance]] used [[compound 7|substance]].")]),
        "b": ("TR-B", "1", [("1 Step 2", "[[Step 2|planned_process]] of [[LQ-2290|substance]] used [[compound 7|substance]].")]),
        "b2": ("TR-B", "2", [("1 Step 2", "[[Step 2|planned_process]] of [[LQ-2290|substance]] used [[compound 7|substance]].")]),
        "c": ("TR-C", "1", [("1 Step 2", "[[Step 2|planned_process]] of [[KX-4471|substance]] used [[compound 7|substance]].")]),
    })
    resolution = resolve(corpus)
    steps = [texts for texts in texts_by_cluster(resolution) if texts == {"Step 2"}]
    sizes = sorted(len(c) for c in resolution.clusters if {resolution.mentions[i].text for i in c} == {"Step 2"})
    assert len(steps) == 2 and sizes == [2, 2]


def test_category_check_splits_disagreeing_clusters() -> None:
    chunk = BASE + "doc/x/chunk/0"
    a = LocalMention(chunk, 0, 6, KIND_CLASSES["substance"], "quench", "t", "substance")
    b = LocalMention(chunk, 10, 16, KIND_CLASSES["unit_operation"], "quench", "t", "unit_operation")
    resolution = Resolution({a.iri: a, b.iri: b}, [sorted([a.iri, b.iri])])
    assert split_inconsistent(resolution).splits == 1
    assert len(resolution.clusters) == 2
    assert resolve_corpus(two_versions(), BASE).resolution.splits == 0


def test_preferred_label_is_a_chemists_name() -> None:
    def mentions(*forms: str) -> list[LocalMention]:
        return [LocalMention("c", i, i + 1, KIND_CLASSES["substance"], f, "t", "substance") for i, f in enumerate(forms)]

    assert preferred_label(mentions("acetonitrile", "MeCN", "MeCN", "ACN")) == ("acetonitrile", ["ACN", "MeCN"])
    assert preferred_label(mentions("2-MeTHF", "2-MeTHF", "2-MeTHF", "2-methyltetrahydrofuran"))[0] == "2-MeTHF"
    assert preferred_label(mentions("Acetonitrile", "acetonitrile", "acetonitrile"))[0] == "acetonitrile"


def test_spellings_of_one_salt_merge_and_the_free_base_stays_apart() -> None:
    text = ("[[KX-4471·HCl|substance]] from [[KX-4471 free base|substance]]; "
            "[[KX-4471 HCl salt|substance]] is [[KX-4471 hydrochloride|substance]].")
    corpus = make_corpus({"d": ("TR-9", "1", [("1 Step 6", text)])})
    resolution = resolve(corpus)
    assert same_cluster(resolution, "KX-4471·HCl", "KX-4471 hydrochloride")
    assert same_cluster(resolution, "KX-4471 HCl salt", "KX-4471 hydrochloride")
    assert not same_cluster(resolution, "KX-4471 free base", "KX-4471 hydrochloride")
