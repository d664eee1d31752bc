"""The readings of texts are kept across evaluations of the same corpus (`_claims._readings_of`):
a reading depends on the ids a text is read against, the corpus's as well as the files asked
about, so a text read against one set of ids is never answered from another's."""

from __future__ import annotations

from provebench.pilot.evaluate._claims import NamedFiles

ASKED = frozenset({"7a03614a8b-12"})
LONGER = frozenset({"7a03614a8b-123"})  # another id of a corpus, which the asked one begins
TEXT = "note 7a03614a8b-123 ok"


def test_a_text_read_against_other_corpus_ids_is_read_again() -> None:
    # Alone, the asked id is found glued in the longer one; in a corpus that holds the longer
    # id, the text names that file, not the asked one — whichever reader read the text first.
    alone = NamedFiles(ASKED, ASKED).named(TEXT)
    beside = NamedFiles(ASKED, ASKED | LONGER).named(TEXT)
    alone_again = NamedFiles(ASKED, ASKED).named(TEXT)
    assert alone == alone_again == ["7a03614a8b-12"]
    assert beside == []


def test_a_text_read_against_other_asked_ids_is_read_again() -> None:
    corpus = ASKED | LONGER
    assert NamedFiles(corpus, corpus).named(TEXT) == ["7a03614a8b-123"]
    assert NamedFiles(ASKED, corpus).named(TEXT) == []
    assert NamedFiles(LONGER, corpus).named(TEXT) == ["7a03614a8b-123"]


def test_many_sets_of_ids_read_in_turn_each_keep_their_own_readings() -> None:
    sets = [frozenset({f"{n:02d}a03614a8b-12"}) for n in range(10)]
    for _ in range(2):
        for ids in sets:
            (only,) = ids
            assert NamedFiles(ids, ids).named(f"see {only}.") == [only]
            assert NamedFiles(ids, ids).named("see 7a03614a8b-12.") == []
