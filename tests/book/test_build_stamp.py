"""_ext/build_stamp.py: the built book says which sources it was made from, and only when it was built afresh
without a warning; the page tests trust it only when the sources are unchanged."""

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))

import build_stamp  # noqa: E402


@pytest.fixture
def repo(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("_build/\n")
    (tmp_path / "intro.md").write_text("# Intro\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    return tmp_path


def test_the_digest_follows_every_source_and_ignores_the_build(repo):
    first = build_stamp.source_digest(repo)
    assert first == build_stamp.source_digest(repo) and len(first) == 64
    (repo / "_build" / "html").mkdir(parents=True)
    (repo / "_build" / "html" / "index.html").write_text("<p>built</p>")
    assert build_stamp.source_digest(repo) == first  # the build's own output is ignored
    (repo / "intro.md").write_text("# Intro, edited\n")
    edited = build_stamp.source_digest(repo)
    assert edited != first  # a tracked file edited
    (repo / "new.md").write_text("# New\n")
    assert build_stamp.source_digest(repo) != edited  # a file not yet added to git
    (repo / "new.md").unlink()
    (repo / "intro.md").unlink()
    assert build_stamp.source_digest(repo) not in {first, edited}  # a tracked file deleted


def test_no_digest_outside_a_git_work_tree(tmp_path):
    (tmp_path / "intro.md").write_text("# Intro\n")
    assert build_stamp.source_digest(tmp_path) is None


def _build(repo, *, warnings=0, exception=None, read=("intro",), found=("intro",), builder="html", old_page=False):
    out = repo / "_build" / "html"
    out.mkdir(parents=True, exist_ok=True)
    (out / build_stamp.STAMP).write_text('{"sources": "an older build"}')
    if old_page:
        (out / "gone.html").write_text("<p>a page of an earlier build</p>")
    app = SimpleNamespace(outdir=str(out), srcdir=str(repo), _warncount=0, builder=SimpleNamespace(name=builder),
                          env=SimpleNamespace(found_docs=set(found)))  # fmt: skip
    build_stamp._start(app)
    assert build_stamp.read_stamp(out) is None  # an older stamp goes first: a failed build leaves none
    build_stamp._read(app, app.env, list(read))
    app._warncount = warnings
    build_stamp._finish(app, exception)
    return build_stamp.read_stamp(out)


def test_a_fresh_clean_build_is_stamped_with_its_sources_and_its_output(repo):
    stamp = _build(repo)
    out = repo / "_build" / "html"
    assert stamp == {
        "sources": build_stamp.source_digest(repo),
        "output": build_stamp.output_digest(out),
        "pages": 1,
        "builder": "html",
    }


def _built(repo):
    """A book 'built' into repo/_build/html: one page, then stamped as the extension stamps a clean build."""
    out = repo / "_build" / "html"
    out.mkdir(parents=True)
    app = SimpleNamespace(outdir=str(out), srcdir=str(repo), _warncount=0, builder=SimpleNamespace(name="html"),
                          env=SimpleNamespace(found_docs={"intro"}))  # fmt: skip
    build_stamp._start(app)
    build_stamp._read(app, app.env, ["intro"])
    (out / "intro.html").write_text("<p>Intro</p>")
    build_stamp._finish(app, None)
    return out


def test_the_page_tests_reuse_only_the_book_of_the_sources_and_pages_now(repo):
    out = _built(repo)
    assert build_stamp.reusable_build(repo, out) == out
    (out / "intro.html").write_text("<p>Intro, from another build</p>")  # a build without the extension, an edit
    assert build_stamp.reusable_build(repo, out) is None
    (out / "intro.html").write_text("<p>Intro</p>")
    assert build_stamp.reusable_build(repo, out) == out
    (out / "extra.html").write_text("<p>a page added</p>")
    assert build_stamp.reusable_build(repo, out) is None
    (out / "extra.html").unlink()
    (repo / "intro.md").write_text("# Intro, edited after the build\n")
    assert build_stamp.reusable_build(repo, out) is None
    (repo / "intro.md").write_text("# Intro\n")
    assert build_stamp.reusable_build(repo, out) == out
    (out / build_stamp.STAMP).write_text('{"sources": "%s"}' % build_stamp.source_digest(repo))  # no output digest
    assert build_stamp.reusable_build(repo, out) is None
    (out / build_stamp.STAMP).unlink()
    assert build_stamp.reusable_build(repo, out) is None


def test_an_unreadable_source_gives_no_digest(repo, monkeypatch):
    """A file that cannot be read (permissions) makes no digest, rather than failing the build in builder-inited."""
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "intro.md":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    assert build_stamp.source_digest(repo) is not None
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert build_stamp.source_digest(repo) is None


@pytest.mark.parametrize(
    "how",
    [
        {"warnings": 1},
        {"exception": RuntimeError("build failed")},
        {"read": (), "found": ("intro",)},  # a page taken over from an earlier build's doctrees
        {"builder": "latex"},
        {"old_page": True},  # the output folder holds pages of an earlier build
    ],
)
def test_no_stamp_for_a_build_that_could_hide_a_problem(repo, how):
    assert _build(repo, **how) is None


def test_an_unreadable_stamp_is_no_stamp(tmp_path):
    (tmp_path / build_stamp.STAMP).write_text("{not json")
    assert build_stamp.read_stamp(tmp_path) is None
    assert build_stamp.read_stamp(tmp_path / "absent") is None
    (tmp_path / build_stamp.STAMP).write_text("[1, 2]")  # JSON, but not a stamp
    assert build_stamp.read_stamp(tmp_path) is None
