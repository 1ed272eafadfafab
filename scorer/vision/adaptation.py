"""Learning the players' own tiles from the cells they labelled, with numpy only.

The tile model reads 160 features of a cell (its tile and icon views) before it names the
building. An ``Adaptation`` remembers the labelled cells by those features and, for a new
cell, blends the model's answer with that of the labelled cells it looks like:

    p = (1 - t) * p_model + t * softmax(closeness / sharpness)
    t = strength * k / (1 + strength * k)

where a building's closeness is the cosine (of centred features) of the closest cell
labelled so, and k the kernel exp((cosine - 1) / width) of the closest labelled cell of
all, times its weight (a player's choice 1, an accepted reading's cell less):

* the blend follows the evidence: a cell like none labelled (k = 0) is read by the model
  alone; a close look-alike labelled by a player outweighs a confident model; whether a
  cell shows a tile at all stays the model's call;
* tavern kinds: a new printing's taverns look like each other more than like the model's
  (their own illustration), and the icon tells the kind. So a cell whose tile view is close
  to a tavern the players labelled (any kind) is that close to each tavern kind, less the
  model's doubt about the kind: one or two taverns teach a printing's taverns, and the
  model still reads the kind from the icon;
* it is local: a label changes the reading of cells like the one labelled, not of the
  rest of the game, which is what a few corrections of one copy can vouch for;
* the built-in anchor cells (shipped with the model, labelled, read right by it) vote too,
  so a cell of the printing the model knows stays with its own kind when a player's new
  printing has a look-alike of another kind; a cell more like an anchor than like any of
  the players' cells is the model's to read (``anchors_gate``: a new printing's tavern can
  look like the model's shop, which the model itself tells apart); and every update is
  checked on them (each without its own vote): one that reads fewer right than the shipped
  model is refused;
* every tile of a photo comes from one copy of the game: a photo whose cells look like the
  players' more than like the anchors is of the players' printing, and there the anchors
  count less (a new printing's shop can look like the model's tavern); in a photo of the
  model's printing the players' cells count less (see ``Adaptation.printings``);
* a printing's pictures: the players' cells keep their look (``vision.appearance``), and a
  doubtful cell of a city found (its place and colours found without them) whose picture is
  clearly most like those of one of their buildings is read as that building, as much as
  that is clear, after all the above (in another printing the model's features can read two
  buildings alike, edition G's offices as its shops; their pictures differ). Not checked on
  the anchors, which keep no pictures;
* nothing learned means no adaptation: forgetting restores the shipped model exactly.

A linear layer fitted on the same features (chesscog's way, fine-tuning the last layers)
was tried first: with one or two photos its bias and shared feature directions moved
cells far from the labelled ones and failed the anchor check. Fitting here is a filter
and a check, well under 200 ms on 2 cores.

A label that contradicts several look-alike cells labelled otherwise is treated as a wrong
tap and left out (``Evidence.without_doubtful``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..city import BUILDINGS, SIZE, TAVERN_KINDS
from ..errors import LearningRefused, ModelError
from .appearance import look_values, vote
from .config import ADAPT, AdaptConfig
from .inks import colour_values, fit_inks, levelled, old_colour_values

ANCHORS_FILE = "tiles-anchors.npz"
CELL_DTYPE = np.float16  # a cell's features are stored this way
PHOTO = SIZE * SIZE  # cells of one photo's city, read in a row


@dataclass
class Evidence:
    """Labelled cells: the model's features (N, D) for each, building indices (N,) into
    BUILDINGS, weights (N,) (a player's own choice counts more than a cell of a reading
    the player accepted), the cells' colours (N, K + 1, 3) (``inks.cell_colours``), from which
    the players' printing's inks are learned, and their looks (N, A) (``appearance.looks``),
    their printing's pictures; NaN for a cell stored without them."""

    features: np.ndarray
    labels: np.ndarray
    weights: np.ndarray
    colours: np.ndarray
    looks: np.ndarray
    doubtful: int = 0  # labels left out as contradicting many look-alikes

    @classmethod
    def from_lessons(cls, lessons: list[tuple[bytes, str, bool]], config: AdaptConfig,
                     width: int) -> Evidence:
        """From stored lessons: (cell as ``Reading.cells_bytes`` wrote it: ``width``
        features, then its colours and its look when the reading had them; building; a
        player's own choice?); a cell of an accepted reading weighs
        ``config.accepted_weight``."""
        lessons = [(c, b, p) for c, b, p in lessons if b in BUILDINGS]
        rows = [np.frombuffer(c, CELL_DTYPE).astype(np.float32) for c, _, _ in lessons]
        n_colours, n_looks, n_old = colour_values(), look_values(), old_colour_values()
        colours = np.full((len(rows), n_colours // 3, 3), np.nan, np.float32)
        looks = np.full((len(rows), n_looks), np.nan, np.float32)
        for i, row in enumerate(rows):
            extra = len(row) - width
            if extra in (n_colours, n_colours + n_looks):
                colours[i] = row[width:width + n_colours].reshape(-1, 3)
            if extra in (n_looks, n_colours + n_looks, n_old + n_looks):  # (colours stored
                looks[i] = row[-n_looks:]  # before they could be levelled teach no inks)
        features = np.array([row[:width] for row in rows], np.float32).reshape(len(rows), width)
        return cls(features, np.array([BUILDINGS.index(b) for _, b, _ in lessons], np.int64),
                   np.array([1.0 if p else config.accepted_weight for _, _, p in lessons],
                            np.float32), colours, looks)

    def __len__(self) -> int:
        return len(self.labels)

    def counts(self) -> dict[str, int]:
        """Cells learned from, per building."""
        found = np.bincount(self.labels, minlength=len(BUILDINGS))
        return {b: int(n) for b, n in zip(BUILDINGS, found, strict=True) if n}

    def without_doubtful(self, config: AdaptConfig, centre: np.ndarray,
                         parts: tuple[int, ...]) -> Evidence:
        """The evidence less each label that look-alike cells contradict.

        A label is doubtful when at least ``contradict_min`` other labelled cells as similar
        as ``similar`` (see ``_cosines``) say another building, and they outnumber the
        ones that agree ``contradict_ratio`` to one.
        """
        if not len(self):
            return self
        centred = self.features - centre
        similar = _cosines(centred, centred, parts) >= config.similar  # (N, N)
        np.fill_diagonal(similar, False)
        same = self.labels[:, None] == self.labels[None, :]
        against = (similar & ~same).sum(axis=1)
        agree = (similar & same).sum(axis=1) + 1
        keep = ~((against >= config.contradict_min) & (against >= config.contradict_ratio * agree))
        return Evidence(self.features[keep], self.labels[keep], self.weights[keep],
                        self.colours[keep], self.looks[keep], self.doubtful + int((~keep).sum()))


@dataclass
class Anchors:
    """Built-in cells the shipped model reads right: features (M, D), the model's
    log-probabilities over its labels (M, L) and the true label index (M,); and the
    colours (B, K, 3) of each building's face in the printing the model knows
    (``inks.face_colours``, BUILDINGS' order), None in an anchors file without them."""

    features: np.ndarray
    log_probs: np.ndarray
    labels: np.ndarray
    faces: np.ndarray | None = None

    @classmethod
    def load(cls, model_dir) -> Anchors:
        from .models import _default_dir

        path = Path(model_dir or _default_dir()) / ANCHORS_FILE
        if not path.is_file():
            raise ModelError(f"{path} not found (run `python -m training.anchors`)")
        with np.load(path) as data:
            return cls(data["features"].astype(np.float32), data["log_probs"].astype(np.float32),
                       data["labels"].astype(np.int64),
                       data["faces"].astype(np.float32) if "faces" in data else None)


@dataclass
class Adaptation:
    """The labelled cells the reader remembers, the players' then the built-in anchors':
    references (M, D) centred features, their label columns (M,) among the model's labels,
    weights (M,), the centre (D,) subtracted from features (the anchors' mean), the parts of
    the features (the tile view's, the icon view's) that must each look alike, and the
    columns of the tavern kinds (a tavern's tile looks like any tavern's, its icon says
    which)."""

    references: np.ndarray
    columns: np.ndarray
    weights: np.ndarray
    centre: np.ndarray
    parts: tuple[int, ...]
    taverns: tuple[int, ...]
    empty: int  # the column of "no tile"
    players: int = 0  # the first this many references are the players' labels
    config: AdaptConfig = AdaptConfig()
    learned: dict[str, int] = field(default_factory=dict)  # cells per building
    doubtful: int = 0
    anchors_right: tuple[int, int] = (0, 0)  # (adapted, shipped) anchors read right
    inks: np.ndarray | None = None  # (4, 3) the players' printing's inks (see vision.inks)
    looks: np.ndarray | None = None  # (K, A) the looks of the players' cells stored with one
    look_groups: np.ndarray | None = None  # (K,) their buildings' columns, a tavern's the
    # first tavern kind's (see vision.appearance)

    def look_alikes(self, probs: np.ndarray, features: np.ndarray,
                    skip: np.ndarray | None = None,
                    photo: int = PHOTO) -> tuple[np.ndarray, np.ndarray]:
        """How like each label the cells (N, D) look and how much that is worth.

        Returns closeness (N, L): the cosine of the closest reference labelled so (-inf for
        a label none has; see ``_tavern_closeness`` for the tavern kinds), the references of
        the other printing than the cell's photo (see ``printings``) ``printing_margin``
        less; and trust (N,) in [0, 1): the weighted kernel of the closest reference of all,
        times ``strength``, as odds. ``probs`` (N, L): the model's own answer; ``skip`` (N,):
        a reference each cell ignores; ``photo``: cells per photo (N of them in a row each).
        """
        cfg = self.config
        centred = features - self.centre
        cosine = _cosines(centred, self.references, self.parts)  # (N, M)
        if skip is not None:
            cosine[np.arange(len(cosine)), skip] = -1
        printing = self._printings(probs, cosine, photo)
        cosine[:, self.players:] -= cfg.printing_margin * (printing > 0)[:, None]
        less = cfg.printing_margin * (printing < 0)  # (N,) off the players' cells
        cosine[:, :self.players] -= less[:, None]
        closeness = np.full(probs.shape, -np.inf, np.float32)
        for label in np.unique(self.columns):
            closeness[:, label] = cosine[:, self.columns == label].max(axis=1)
        width = np.where(printing > 0, cfg.players_kernel_width, cfg.kernel_width)  # (N,)
        kernel = np.concatenate([self._kernel(cosine[:, :self.players], width[:, None]),
                                 self._kernel(cosine[:, self.players:], cfg.kernel_width)], axis=1)
        closest = (kernel * self.weights).max(axis=1)
        if np.isin(self.columns[:self.players], self.taverns).any():
            kinds = list(self.taverns)
            like_kinds, worth = self._tavern_closeness(
                probs[:, kinds], centred, less, width)
            closeness[:, kinds] = np.maximum(closeness[:, kinds], like_kinds)
            closest = np.maximum(closest, worth)
        trust = cfg.strength * closest / (1 + cfg.strength * closest)
        # a cell more like a built-in anchor than like any of the players' cells, and read
        # surely by the model, is the model's: the anchors' votes alone overturned its right
        # answers (a new printing's tavern like the model's shop); a doubtful cell keeps its
        # look-alikes, which is how one taught photo mends a printing's misread taverns
        if cfg.anchors_gate > 0:
            theirs = cosine[:, :self.players].max(axis=1, initial=-1)
            gate = _sigmoid((theirs - cosine[:, self.players:].max(axis=1)) / cfg.anchors_gate)
            trust *= np.where(probs.max(axis=1) >= cfg.gate_sure, gate, 1.0)
        return closeness, trust * (1 - probs[:, self.empty])  # players label tiles: whether
        # a cell shows one at all stays the model's call

    def printings(self, probs: np.ndarray, features: np.ndarray, photo: int = PHOTO) -> np.ndarray:
        """Which printing each cell's photo shows (N,): 1 the players', -1 the one the model
        was trained on, 0 unsure; probs (N, L) and features (N, D) of ``photo`` cells per
        photo, in a row. See ``_printings``."""
        cosine = _cosines(features - self.centre, self.references, self.parts)
        return self._printings(probs, cosine, photo)

    def _printings(self, probs: np.ndarray, cosine: np.ndarray, photo: int) -> np.ndarray:
        """``printings`` from the cells' cosines (N, M) to the references. Every tile of a
        photo comes from one copy of the game.

        Each cell the model reads as a tile says how much more it looks like the closest of
        the players' cells than like the closest anchor; a photo whose cells say at least
        ``players_printing`` on average is of the players' printing, one whose say at most
        ``models_printing`` of the model's. A new printing's tile can look more like an
        anchor of another building than like the players' cells of its own: in a photo of
        that printing the anchors count ``printing_margin`` less, and in a photo of the
        model's printing the players' cells do (no drop where the model was right).

        probs (N, L); cosine (N, M) to the references; ``photo`` cells per photo, in a row.
        """
        cfg = self.config
        tile = probs.argmax(axis=1) != self.empty
        says = cosine[:, :self.players].max(axis=1, initial=-1) - cosine[:, self.players:].max(axis=1)
        printing = np.zeros(len(probs), np.int8)
        for start in range(0, len(probs), photo):
            said = says[start:start + photo][tile[start:start + photo]]
            if len(said):
                mean = said.mean()
                printing[start:start + photo] = (int(mean >= cfg.players_printing)
                                                 - int(mean <= cfg.models_printing))
        return printing

    def _tavern_closeness(self, kinds: np.ndarray, centred: np.ndarray, less: np.ndarray,
                          width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A cell is as close to each tavern kind as its tile view is to the closest tavern the
        players labelled (any kind), less the model's doubt about the kind: one or two
        taverns of a new printing teach what its taverns look like, the model still tells
        the kinds apart by their icons.

        kinds : (N, K) the model's probabilities of the tavern kinds; centred : (N, D);
        less : (N,) taken off the cosine (the photo is of the model's printing); width (N,)
        of the players' cells' kernel. Returns closeness (N, K) and the weighted kernel (N,)
        of that closest tavern.
        """
        tile = slice(0, self.parts[0])
        players = np.flatnonzero(np.isin(self.columns[:self.players], self.taverns))
        cosine = _cosines(centred[:, tile], self.references[players, tile], (self.parts[0],))
        nearest = cosine.argmax(axis=1)
        like_tavern = cosine[np.arange(len(cosine)), nearest] - less  # (N,)
        odds = kinds / np.maximum(kinds.sum(axis=1, keepdims=True), 1e-9)
        closeness = like_tavern[:, None] + self.config.sharpness * np.log(np.maximum(odds, 1e-9))
        return closeness, self._kernel(like_tavern, width) * self.weights[players[nearest]]

    def _kernel(self, cosine: np.ndarray, width) -> np.ndarray:
        """What a look-alike this close is worth, from 1 (the same) down to 0 (unlike), by
        the kernel's ``width`` (as cosine)."""
        return np.where(cosine >= self.config.min_cosine, np.exp((cosine - 1) / width), 0)

    def adjust(self, probs: np.ndarray, features: np.ndarray,
               skip: np.ndarray | None = None, photo: int = PHOTO) -> np.ndarray:
        """Probabilities (N, L) from the model's own (N, L) and the cells' features (N, D),
        ``photo`` cells of each photo in a row: the model's answer blended with the
        look-alikes' (the label of the closest, by a softmax of closeness at ``sharpness``)
        as much as they are trusted (the players' pictures are ``by_pictures``)."""
        closeness, trust = self.look_alikes(probs, features, skip, photo)
        near = np.exp((closeness - closeness.max(axis=1, keepdims=True)) / self.config.sharpness)
        near /= near.sum(axis=1, keepdims=True)
        return (1 - trust[:, None]) * probs + trust[:, None] * near

    def by_pictures(self, probs: np.ndarray, features: np.ndarray, looks: np.ndarray,
                    photo: int = PHOTO) -> np.ndarray:
        """Probabilities (N, L) (``adjust``'s) blended with the building whose pictures, as
        the players labelled them, the cells' looks (N, A) are clearly most like
        (``appearance.vote``); a tavern's kind split as ``probs`` split it (the icon tells
        it). Only for cells read doubtfully (under ``gate_sure``) or, in a photo of the
        players' printing, whose picture is plainly one of their buildings'
        (``appearance.vote``); not in a photo of the model's own printing (``printings``, from
        the features (N, D), ``photo`` cells a photo); and whether a cell shows a tile at all
        stays the model's call."""
        if self.looks is None or not len(self.looks):
            return probs
        printing = self.printings(probs, features, photo)
        group, trust, plain = vote(looks, self.looks, self.look_groups, self.config)
        # a cell read surely is the model's (and the look-alikes'): a taught picture of another
        # building nearer than those of its own can be a tile seen smaller or blurred; unless,
        # in a photo of the players' printing, its picture is plainly one of their buildings'
        # (edition I: shops read surely as factories, whose pictures were plainly the shops')
        open_to_vote = (probs.max(axis=1) < self.config.gate_sure) | (plain & (printing > 0))
        trust = trust * open_to_vote * (printing >= 0) * (1 - probs[:, self.empty])
        voted = np.zeros_like(probs)
        voted[np.arange(len(probs)), group] = 1.0
        kinds = list(self.taverns)
        tavern = np.isin(group, kinds)
        odds = probs[:, kinds] / np.maximum(probs[:, kinds].sum(axis=1, keepdims=True), 1e-9)
        voted[tavern] = 0.0
        voted[np.ix_(np.flatnonzero(tavern), kinds)] = odds[tavern]
        return (1 - trust[:, None]) * probs + trust[:, None] * voted

    @property
    def cells(self) -> int:
        return sum(self.learned.values())

    def to_bytes(self) -> bytes:
        out = io.BytesIO()
        np.savez_compressed(out, references=self.references.astype(np.float16),
                            columns=self.columns, weights=self.weights, centre=self.centre,
                            parts=np.array(self.parts), taverns=np.array(self.taverns),
                            empty=self.empty,
                            players=self.players,
                            learned=np.array([self.learned.get(b, 0) for b in BUILDINGS]),
                            doubtful=self.doubtful, anchors_right=np.array(self.anchors_right),
                            **({} if self.inks is None else {"inks": self.inks}),
                            **({} if self.looks is None else {
                                "looks": self.looks.astype(np.float16),
                                "look_groups": self.look_groups}))
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, config: AdaptConfig = ADAPT) -> Adaptation:
        with np.load(io.BytesIO(data), allow_pickle=False) as d:
            learned = {b: int(n) for b, n in zip(BUILDINGS, d["learned"], strict=True) if n}
            return cls(d["references"].astype(np.float32), d["columns"].astype(np.int64),
                       d["weights"].astype(np.float32), d["centre"].astype(np.float32),
                       tuple(int(n) for n in d["parts"]), tuple(int(n) for n in d["taverns"]),
                       int(d["empty"]), int(d["players"]), config, learned, int(d["doubtful"]),
                       tuple(int(v) for v in d["anchors_right"]),
                       d["inks"].astype(np.float32) if "inks" in d else None,
                       d["looks"].astype(np.float32) if "looks" in d else None,
                       d["look_groups"].astype(np.int64) if "look_groups" in d else None)


def fit(evidence: Evidence, anchors: Anchors, labels: list[str], parts: tuple[int, ...],
        config: AdaptConfig) -> Adaptation | None:
    """What ``evidence`` teaches (None when there is no evidence); LearningRefused when it
    reads the anchors worse than the shipped model does.

    labels : the model's labels (BUILDINGS plus "empty"), the order of its outputs.
    parts : sizes of the features' parts (tile view, icon view); two cells look alike as
        much as their least alike part.
    """
    if not len(evidence):
        return None
    centre = anchors.features.mean(axis=0)
    kept = evidence.without_doubtful(config, centre, parts)
    columns = np.array([labels.index(b) for b in BUILDINGS])[kept.labels]
    adapted = Adaptation(
        np.concatenate([kept.features, anchors.features]) - centre,
        np.concatenate([columns, anchors.labels]),
        np.concatenate([kept.weights, np.full(len(anchors.labels), config.anchor_weight)]),
        centre, tuple(parts), tuple(labels.index(k) for k in TAVERN_KINDS), labels.index("empty"),
        len(kept), config, kept.counts(), kept.doubtful,
        inks=_inks(kept, anchors, config), **_looks(kept, columns, labels))
    # the anchors are read as photos of PHOTO cells of several buildings (they are stored
    # by building: photo j takes every anchor i with i % photos == j), each anchor no
    # look-alike of itself
    count = len(anchors.labels)
    order = np.argsort(np.arange(count) % -(-count // PHOTO), kind="stable")
    itself = len(kept) + order
    right = _right(adapted.adjust(np.exp(anchors.log_probs[order]), anchors.features[order],
                                  itself), anchors.labels[order])
    shipped = _right(anchors.log_probs, anchors.labels)
    adapted.anchors_right = (right, shipped)
    if right < shipped:
        raise LearningRefused(f"the update would read {right} of {len(anchors.labels)} "
                              f"built-in cells right, the shipped model {shipped}")
    return adapted


def _inks(evidence: Evidence, anchors: Anchors, config: AdaptConfig) -> np.ndarray | None:
    """The players' printing's inks from the labelled cells stored with their colours
    (``inks.fit_inks``), None without enough of them or without the faces' colours."""
    with_colours = np.isfinite(evidence.colours).all(axis=(1, 2)) if evidence.colours.size \
        else np.zeros(len(evidence), bool)
    if anchors.faces is None or anchors.faces.shape[1] != evidence.colours.shape[1] - 1:
        return None
    return fit_inks(levelled(evidence.colours[with_colours]), evidence.labels[with_colours],
                    anchors.faces, config)


def _looks(evidence: Evidence, columns: np.ndarray, labels: list[str]) -> dict:
    """The looks (K, A) of the labelled cells stored with one, and their buildings' columns
    (K,) among the model's ``labels`` (``columns`` (N,) of every cell), the tavern kinds one
    column (the first kind's): an ``Adaptation``'s ``looks`` and ``look_groups``; none when
    no cell has a look."""
    with_look = np.isfinite(evidence.looks).all(axis=1)
    if not with_look.any():
        return {}
    kinds = [labels.index(k) for k in TAVERN_KINDS]
    groups = np.where(np.isin(columns, kinds), kinds[0], columns)
    return {"looks": evidence.looks[with_look], "look_groups": groups[with_look]}


def _right(scores: np.ndarray, labels: np.ndarray) -> int:
    return int((np.argmax(scores, axis=1) == labels).sum())


def _cosines(a: np.ndarray, b: np.ndarray, parts: tuple[int, ...]) -> np.ndarray:
    """(N, M) how alike cells a (N, D) and b (M, D) look: the cosine of their least alike
    part of the features. (einsum, not BLAS: BLAS's worker threads keep spinning after a
    product and slow the ONNX models that run next.)"""
    least, start = None, 0
    for size in parts:
        part = slice(start, start + size)
        cosine = np.einsum("nd,md->nm", _unit(a[:, part]), _unit(b[:, part]))
        least = cosine if least is None else np.minimum(least, cosine)
        start += size
    return least


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x, -50, 50)))


def _unit(features: np.ndarray) -> np.ndarray:
    f = np.asarray(features, np.float32)
    return f / np.maximum(np.linalg.norm(f, axis=-1, keepdims=True), 1e-6)
