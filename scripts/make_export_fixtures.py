"""Write the fixtures of Label Studio's, doccano's and Prodigy's exports (corpora_fixtures/exports).

No real export of these tools is in the shared corpora: the fixtures are built from the
documented formats (see each folder's README.md for the facts and their sources). Three
annotators annotate three short documents with named entities, coreference (relations between
mentions) and a document label; the texts hold a letter with a combining accent, a character
outside the Basic Multilingual Plane (an emoji) and other non-ASCII letters, so that offsets in
code points, UTF-16 code units and grapheme clusters differ. Offsets are computed here from the
texts, never written by hand.

Usage::

    python scripts/make_export_fixtures.py [--out corpora_fixtures/exports]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EMOJI = "\N{GRINNING FACE}"
TEXTS = {
    "t1": f"Zoë met Ana in Łódź {EMOJI} today. She said the cafe\u0301 was hers.",
    "t2": f"{EMOJI}{EMOJI} Bob called Carol. He asked her about Dave, and she laughed.",
    "t3": "The report on Paris was late; its authors blamed the court.",
}
USERS = [(1, "alice@example.org"), (2, "bob@example.org"), (3, "chen@example.org")]
# Each annotator's mentions: (document, surface, occurrence, label) and coreference links
# (later mention -> earlier one) by index in that list; a document label per document.
MENTIONS = {
    "alice": {"t1": [("Zoë", 0, "PER"), ("Ana", 0, "PER"), ("Łódź", 0, "LOC"),
                     ("She", 0, "PER"), ("hers", 0, "PER")],
              "t2": [("Bob", 0, "PER"), ("Carol", 0, "PER"), ("He", 0, "PER"),
                     ("her", 0, "PER"), ("Dave", 0, "PER"), ("she", 0, "PER")],
              "t3": [("Paris", 0, "LOC"), ("The report on Paris", 0, "MISC"),
                     ("its", 0, "MISC"), ("the court", 0, "ORG")]},
    "bob": {"t1": [("Zoë", 0, "PER"), ("Łódź", 0, "LOC"), ("She", 0, "PER"),
                   ("cafe\u0301", 0, "MISC"), ("hers", 0, "PER")],
            "t2": [("Bob", 0, "PER"), ("Carol", 0, "PER"), ("He", 0, "PER"),
                   ("her", 0, "PER"), ("she", 0, "PER")],
            "t3": [("Paris", 0, "LOC"), ("its", 0, "MISC"), ("court", 0, "ORG")]},
    "chen": {"t1": [("Zoë", 0, "PER"), ("Ana", 0, "PER"), ("She", 0, "PER"),
                    ("hers", 0, "PER")],
             "t2": [("Bob", 0, "PER"), ("Carol", 0, "PER"), ("He", 0, "PER"),
                    ("her", 0, "PER"), ("Dave", 0, "PER")],
             "t3": [("The report", 0, "MISC"), ("Paris", 0, "LOC"), ("its", 0, "MISC")]},
}
LINKS = {
    "alice": {"t1": [(3, 0), (4, 3)], "t2": [(2, 0), (3, 1), (5, 3)], "t3": [(2, 1)]},
    "bob": {"t1": [(2, 0), (4, 2)], "t2": [(2, 0), (3, 1), (4, 1)], "t3": []},
    "chen": {"t1": [(2, 1), (3, 2)], "t2": [(2, 0), (3, 1)], "t3": [(2, 0)]},
}
TOPICS = {"alice": {"t1": "travel", "t2": "family", "t3": "news"},
          "bob": {"t1": "travel", "t2": "family", "t3": "politics"},
          "chen": {"t1": "food", "t2": "family", "t3": "news"}}
NAMES = ["alice", "bob", "chen"]


def offsets(text: str, surface: str, occurrence: int) -> tuple[int, int]:
    """Code-point offsets of the ``occurrence``-th ``surface`` in ``text``, as a word."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.find(surface, at + 1)
        while at > 0 and text[at - 1].isalnum():
            at = text.find(surface, at + 1)
        assert at >= 0, (surface, text)
    return at, at + len(surface)


def utf16(text: str, index: int) -> int:
    return len(text[:index].encode("utf-16-le")) // 2


def mentions(user: str, doc: str) -> list[tuple[int, int, str, str]]:
    text = TEXTS[doc]
    return [(*offsets(text, s, k), s, label) for s, k, label in MENTIONS[user][doc]]


# ----------------------------------------------------------------------------- Label Studio

def ls_result(user: str, doc: str, unit: str, uid: int) -> list[dict]:
    text = TEXTS[doc]
    out: list[dict] = []
    for k, (s, e, surface, label) in enumerate(mentions(user, doc)):
        if unit == "utf16":
            s, e = utf16(text, s), utf16(text, e)
        out.append({"value": {"start": s, "end": e, "text": surface, "labels": [label]},
                    "id": f"{doc}-{uid}-{k}", "from_name": "label", "to_name": "text",
                    "type": "labels", "origin": "manual"})
    for a, b in LINKS[user][doc]:
        out.append({"from_id": f"{doc}-{uid}-{a}", "to_id": f"{doc}-{uid}-{b}",
                    "type": "relation", "direction": "right", "labels": ["coref"]})
    out.append({"value": {"choices": [TOPICS[user][doc]]}, "id": f"{doc}-{uid}-topic",
                "from_name": "topic", "to_name": "text", "type": "choices",
                "origin": "manual"})
    return out


def ls_annotation(user: str, doc: str, unit: str, who: object, ann_id: int) -> dict:
    uid = NAMES.index(user) + 1
    return {"id": ann_id, "completed_by": who, "result": ls_result(user, doc, unit, uid),
            "was_cancelled": False, "ground_truth": False,
            "created_at": "2024-05-02T10:11:12.000000Z",
            "updated_at": "2024-05-02T10:11:12.000000Z", "draft_created_at": None,
            "lead_time": 31.5, "prediction": {}, "result_count": 0, "unique_id": f"u{ann_id}",
            "import_id": None, "last_action": None, "task": int(doc[1:]), "project": 4,
            "updated_by": uid, "parent_prediction": None, "parent_annotation": None,
            "last_created_by": None}


def ls_task(doc: str, annotations: list[dict], predictions: list[dict] | None = None) -> dict:
    return {"id": int(doc[1:]), "annotations": annotations, "file_upload": "texts.json",
            "drafts": [], "predictions": predictions or [], "data": {"text": TEXTS[doc]},
            "meta": {}, "created_at": "2024-05-01T09:00:00.000000Z",
            "updated_at": "2024-05-02T10:11:12.000000Z", "inner_id": int(doc[1:]),
            "total_annotations": len(annotations), "cancelled_annotations": 0,
            "total_predictions": 0, "comment_count": 0, "unresolved_comment_count": 0,
            "last_comment_updated_at": None, "project": 4, "updated_by": 1,
            "comment_authors": []}


def label_studio(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for unit in ("utf16", "codepoints"):
        tasks = []
        ann_id = 100
        for doc in TEXTS:
            anns = []
            for uid, user in enumerate(NAMES, 1):
                ann_id += 1
                who = uid if unit == "utf16" else {"id": uid, "email": USERS[uid - 1][1],
                                                   "first_name": user.title(),
                                                   "last_name": ""}
                anns.append(ls_annotation(user, doc, unit, who, ann_id))
            tasks.append(ls_task(doc, anns))
        if unit == "utf16":  # the edge cases, once
            t1, t2, t3 = tasks
            t1["annotations"][0]["ground_truth"] = True
            cancelled = ls_annotation("chen", "t2", unit, 3, 199)
            cancelled["was_cancelled"], cancelled["result"] = True, []
            t2["annotations"].append(cancelled)
            t2["predictions"] = [{"id": 7, "model_version": "ner-v1", "score": 0.5,
                                  "result": ls_result("alice", "t2", unit, 9)[:2]}]
            stacked = t3["annotations"][1]["result"][0]
            stacked["value"]["labels"] = ["LOC", "ORG"]  # bob: Paris is LOC and ORG
            t3["annotations"][1]["result"].append(
                {"value": {"text": ["a note"]}, "id": "t3-2-note", "from_name": "comment",
                 "to_name": "text", "type": "textarea", "origin": "manual"})
            t3["annotations"][2]["result"].append(
                {"value": {"choices": ["certain"]}, "id": "t3-3-0", "from_name": "sure",
                 "to_name": "text", "type": "choices", "origin": "manual"})
            left = t1["annotations"][2]["result"]
            for r in left:
                if r["type"] == "relation" and r["from_id"] == "t1-3-3":
                    r["from_id"], r["to_id"], r["direction"] = "t1-3-2", "t1-3-3", "left"
        (out / f"project-{unit}.json").write_text(
            json.dumps(tasks, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # two annotations by one user on one task
    dup = [ls_task("t3", [ls_annotation("alice", "t3", "utf16", 1, 301),
                          ls_annotation("bob", "t3", "utf16", 2, 302),
                          ls_annotation("alice", "t3", "utf16", 1, 303)])]
    dup[0]["annotations"][2]["result"] = dup[0]["annotations"][2]["result"][:1]
    (out / "duplicates.json").write_text(json.dumps(dup, indent=2, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    # a task whose data has two text fields
    two = [ls_task("t1", [ls_annotation("alice", "t1", "utf16", 1, 401)])]
    two[0]["data"] = {"title": "Łódź, a visit", "text": TEXTS["t1"]}
    (out / "two-text-fields.json").write_text(
        json.dumps(two, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # one annotation whose regions mix units: the first in code points, the others UTF-16
    mixed = [ls_task("t1", [ls_annotation("alice", "t1", "utf16", 1, 501)])]
    first = mixed[0]["annotations"][0]["result"]
    s, e = offsets(TEXTS["t1"], "She", 0)
    first[3]["value"]["start"], first[3]["value"]["end"] = s, e
    (out / "mixed-units.json").write_text(
        json.dumps(mixed, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # JSON-MIN and CSV: the flat exports
    flat = []
    for doc in TEXTS:
        for uid, user in enumerate(NAMES, 1):
            flat.append({"text": TEXTS[doc], "id": int(doc[1:]),
                         "label": [{"start": s, "end": e, "text": t, "labels": [lab]}
                                   for s, e, t, lab in mentions(user, doc)],
                         "topic": TOPICS[user][doc], "annotator": USERS[uid - 1][1],
                         "annotation_id": 100 + uid, "created_at": "2024-05-02T10:11:12Z",
                         "updated_at": "2024-05-02T10:11:12Z", "lead_time": 31.5})
    (out / "json-min.json").write_text(json.dumps(flat, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["text", "id", "annotator", "annotation_id", "created_at", "label",
                     "lead_time", "topic", "updated_at"])
    for row in flat:
        writer.writerow([row["text"], row["id"], row["annotator"], row["annotation_id"],
                         row["created_at"], json.dumps(row["label"], ensure_ascii=False),
                         row["lead_time"], row["topic"], row["updated_at"]])
    (out / "export.csv").write_text(buf.getvalue(), encoding="utf-8")


# ----------------------------------------------------------------------------------- doccano

def doccano_lines(user: str, relations: bool) -> list[str]:
    lines = []
    for k, doc in enumerate(TEXTS, 1):
        found = mentions(user, doc)
        base = 1000 * (NAMES.index(user) + 1) + 10 * k
        if relations:
            ents = [{"id": base + i, "label": lab, "start_offset": s, "end_offset": e}
                    for i, (s, e, _, lab) in enumerate(found)]
            rels = [{"id": base + i, "from_id": base + a, "to_id": base + b, "type": "coref"}
                    for i, (a, b) in enumerate(LINKS[user][doc])]
            record = {"id": k, "text": TEXTS[doc], "source": "fixture", "entities": ents,
                      "relations": rels, "Comments": []}
        else:
            record = {"id": k, "text": TEXTS[doc], "source": "fixture",
                      "label": sorted([s, e, lab] for s, e, _, lab in found),
                      "Comments": []}
        lines.append(json.dumps(record, ensure_ascii=False))
    return lines


def _member(z: zipfile.ZipFile, name: str, text: str) -> None:
    """A ZIP member with a fixed date, so that the fixture is the same at every run."""
    z.writestr(zipfile.ZipInfo(name, date_time=(2024, 5, 2, 12, 0, 0)), text,
               compress_type=zipfile.ZIP_DEFLATED)


def doccano(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out / "relations-by-user.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for user in NAMES:
            _member(z, f"{user}.jsonl", "\n".join(doccano_lines(user, True)) + "\n")
    seq = out / "sequence-labelling"
    seq.mkdir(exist_ok=True)
    for user in NAMES:
        lines = doccano_lines(user, False)
        if user == "chen":  # a span past the end of the text
            record = json.loads(lines[2])
            record["label"].append([55, 90, "ORG"])
            lines[2] = json.dumps(record, ensure_ascii=False)
        (seq / f"{user}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cls = out / "text-classification"
    cls.mkdir(exist_ok=True)
    for user in NAMES:
        lines = [json.dumps({"id": k, "text": TEXTS[doc], "label": [TOPICS[user][doc]],
                             "Comments": []}, ensure_ascii=False)
                 for k, doc in enumerate(TEXTS, 1)]
        (cls / f"{user}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with zipfile.ZipFile(out / "collaborative.zip", "w", zipfile.ZIP_DEFLATED) as z:
        merged = [json.loads(line) for line in doccano_lines("alice", False)]
        for record, other in zip(merged, (json.loads(x) for x in doccano_lines("bob", False)),
                                 strict=True):
            record["label"] = sorted(record["label"] + other["label"])
        _member(z, "all.jsonl", "\n".join(json.dumps(r, ensure_ascii=False)
                                           for r in merged) + "\n")
    old = out / "doccano-1.5"  # text under "data", only labelled documents, unknown.jsonl
    old.mkdir(exist_ok=True)
    for user in ("alice", "bob"):
        lines = [json.dumps({"id": k, "data": TEXTS[doc],
                             "label": sorted([s, e, lab] for s, e, _, lab in
                                             mentions(user, doc))}, ensure_ascii=False)
                 for k, doc in enumerate(TEXTS, 1) if not (user == "bob" and doc == "t3")]
        (old / f"{user}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (old / "unknown.jsonl").write_text(json.dumps({"id": 4, "data": "Nobody labelled this.",
                                                   "label": []}) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------------- Prodigy

def tokens(text: str) -> list[dict]:
    out, i = [], 0
    for k, word in enumerate(text.replace(".", " .").replace(",", " ,").replace(";", " ;")
                             .split()):
        start = text.find(word, i)
        out.append({"text": word, "start": start, "end": start + len(word), "id": k,
                    "ws": start + len(word) < len(text) and text[start + len(word)] == " "})
        i = start + len(word)
    return out


def prodigy_manual(user: str, doc: str, k: int) -> dict:
    text = TEXTS[doc]
    toks = tokens(text)
    first = {t["start"]: t["id"] for t in toks}
    last = {t["end"]: t["id"] for t in toks}
    spans = []
    for s, e, surface, label in mentions(user, doc):
        spans.append({"start": s, "end": e, "text": surface, "token_start": first[s],
                      "token_end": last[e], "label": label})
    rels = []
    for a, b in LINKS[user][doc]:
        head, child = spans[b], spans[a]
        rels.append({"head": head["token_end"], "child": child["token_end"],
                     "head_span": {k2: head[k2] for k2 in ("start", "end", "token_start",
                                                          "token_end", "label")},
                     "child_span": {k2: child[k2] for k2 in ("start", "end", "token_start",
                                                            "token_end", "label")},
                     "color": "#c5bdf4", "label": "COREF"})
    return {"text": text, "meta": {"doc_id": doc}, "_input_hash": 7000 + k,
            "_task_hash": 9000 + k, "_is_binary": False, "tokens": toks, "spans": spans,
            "relations": rels, "_view_id": "relations", "answer": "accept",
            "_timestamp": 1714640000 + k, "_annotator_id": f"coref-{user}",
            "_session_id": f"coref-{user}"}


def prodigy(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for user in NAMES:
        for k, doc in enumerate(TEXTS, 1):
            lines.append(prodigy_manual(user, doc, k))
    ignored = dict(prodigy_manual("chen", "t3", 3), answer="ignore", _timestamp=1714650000)
    rejected = dict(prodigy_manual("bob", "t2", 2), answer="reject", _timestamp=1714650001)
    redone = prodigy_manual("alice", "t3", 3)  # alice annotates t3 again: the last is read
    redone["spans"] = redone["spans"][:2]
    redone["relations"], redone["_timestamp"] = [], 1714650002
    lines += [ignored, rejected, redone]
    (out / "coref-manual.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    choice = []
    for user in NAMES:
        for k, doc in enumerate(TEXTS, 1):
            choice.append({"text": TEXTS[doc], "options": [{"id": t, "text": t.title()} for t in
                                                           ("travel", "family", "news",
                                                            "politics", "food")],
                           "_input_hash": 7000 + k, "_task_hash": 8000 + k,
                           "_view_id": "choice", "accept": [TOPICS[user][doc]],
                           "config": {"choice_style": "single"}, "answer": "accept",
                           "_timestamp": 1714660000 + k, "_annotator_id": f"topics-{user}",
                           "_session_id": f"topics-{user}"})
    (out / "textcat-choice.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in choice), encoding="utf-8")
    binary = []
    for user in NAMES:
        for k, doc in enumerate(TEXTS, 1):
            for label in ("TRAVEL", "NEWS"):
                yes = (label == "TRAVEL") == (TOPICS[user][doc] == "travel")
                binary.append({"text": TEXTS[doc], "label": label, "_input_hash": 7000 + k,
                               "_task_hash": 6000 + 10 * k + len(label),
                               "_view_id": "classification",
                               "answer": "accept" if yes else "reject",
                               "_annotator_id": f"binary-{user}",
                               "_session_id": f"binary-{user}"})
    (out / "textcat-binary.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in binary), encoding="utf-8")
    teach = [{"text": TEXTS["t3"], "spans": [{"start": 14, "end": 19, "text": "Paris",
                                             "label": "GPE", "score": 0.87, "rank": 1}],
              "meta": {"score": 0.87}, "_input_hash": 7003, "_task_hash": 5003,
              "_view_id": "ner", "answer": "accept", "_annotator_id": "teach-alice",
              "_session_id": "teach-alice"}]
    (out / "ner-teach.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in teach), encoding="utf-8")
    anonymous = dict(prodigy_manual("alice", "t1", 1), _annotator_id=None, _session_id=None)
    (out / "no-session.jsonl").write_text(json.dumps(anonymous, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
    shifted = prodigy_manual("alice", "t1", 1)
    shifted["spans"][3]["token_end"] += 1  # "She" said to end on the next token
    (out / "token-mismatch.jsonl").write_text(json.dumps(shifted, ensure_ascii=False) + "\n",
                                              encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "corpora_fixtures" / "exports",
                        help="the folder of the fixtures (default corpora_fixtures/exports)")
    args = parser.parse_args()
    label_studio(args.out / "labelstudio")
    doccano(args.out / "doccano")
    prodigy(args.out / "prodigy")


if __name__ == "__main__":
    main()
