// Pieces and boards as SVG, for the board (app.js), the setup cards'
// pictures and the rules view (rules.js). Drawing only: no rules here.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const S = 60, M = 40;                 // point spacing, margin (SVG units)
const FILES = "abcdefghi";

// Piece sizes: the general largest, then chariot/cannon/horse/elephant,
// then guards and soldiers (spec §9).
const RADIUS = { general: 31, big: 27, small: 22 };
const HANJA = {
  cho: { general: "楚", chariot: "車", cannon: "包", horse: "馬", elephant: "象", guard: "士", soldier: "卒" },
  han: { general: "漢", chariot: "車", cannon: "包", horse: "馬", elephant: "象", guard: "士", soldier: "兵" },
};
const HANGUL = {
  cho: { general: "궁", chariot: "차", cannon: "포", horse: "마", elephant: "상", guard: "사", soldier: "졸" },
  han: { general: "궁", chariot: "차", cannon: "포", horse: "마", elephant: "상", guard: "사", soldier: "병" },
};

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function octagon(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 8; i++) {
    const a = Math.PI / 8 + i * Math.PI / 4;
    pts.push((cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}

function pieceSize(kind) {
  if (kind === "general") return "general";
  return ["chariot", "cannon", "horse", "elephant"].includes(kind) ? "big" : "small";
}

// One piece `p` ({side, kind}, and the server's `hanja`/`hangul` names
// where it has them) centred on (x, y): an octagon with its Hanja, and
// the Hangul label under it when `label` is the label's font size (SVG
// units; the board makes it at least 10 px on screen).
function drawPiece(parent, x, y, p, label, attrs) {
  const side = p.side, kind = p.kind;
  const size = pieceSize(kind);
  const rad = RADIUS[size];
  const color = side === "cho" ? "var(--cho)" : "var(--han)";
  const g = el("g", Object.assign({ class: "piece " + side + " " + size }, attrs || {}), parent);
  el("polygon", { points: octagon(x, y, rad), fill: "#fffdf5", stroke: color, "stroke-width": size === "small" ? 2.5 : 3 }, g);
  const full = { general: 30, big: 26, small: 20 }[size];
  let hanjaSize = full, hanjaY = y + full * 0.35;
  if (label) {
    // Room for both: the Hanja shrinks as the label grows.
    hanjaSize = Math.min(full, Math.max(12, 2 * rad * 0.86 - label * 1.15));
    hanjaY = y - rad * 0.78 + hanjaSize * 0.92;
  }
  const t = el("text", { x: x, y: hanjaY.toFixed(1), "text-anchor": "middle", fill: color,
    "font-size": hanjaSize.toFixed(1), "font-weight": 700, "font-family": "JanggiBoard, sans-serif", class: "hanja" }, g);
  t.textContent = p.hanja || HANJA[side][kind];
  if (label) {
    const h = el("text", { x: x, y: (y + rad * 0.8).toFixed(1), "text-anchor": "middle", fill: color,
      "font-size": label.toFixed(1), "font-weight": 700, "font-family": "JanggiBoard, sans-serif", class: "hangul" }, g);
    h.textContent = p.hangul || HANGUL[side][kind];
  }
  return g;
}

// The empty board: grid, palace diagonals, frame. `files` × `ranks`
// points from (0, 0) at the top left; palaces where a 9 × 10 board has them.
function drawGrid(svg, files, ranks, spacing, margin) {
  const g = el("g", { stroke: "var(--line)", "stroke-width": 2, fill: "none" }, svg);
  for (let c = 0; c < files; c++) el("line", { x1: margin + c * spacing, y1: margin, x2: margin + c * spacing, y2: margin + (ranks - 1) * spacing }, g);
  for (let r = 0; r < ranks; r++) el("line", { x1: margin, y1: margin + r * spacing, x2: margin + (files - 1) * spacing, y2: margin + r * spacing }, g);
  if (files === 9 && ranks === 10) {
    for (const top of [0, 7]) {
      el("line", { x1: margin + 3 * spacing, y1: margin + top * spacing, x2: margin + 5 * spacing, y2: margin + (top + 2) * spacing }, g);
      el("line", { x1: margin + 5 * spacing, y1: margin + top * spacing, x2: margin + 3 * spacing, y2: margin + (top + 2) * spacing }, g);
    }
  }
  return g;
}

// A setup card's picture: the chooser's back rank from the player's own
// side (chariot, the four horse/elephant points, guards, the general
// behind on the rank above), as the player sees it.
function setupPicture(code, side) {
  const svg = el("svg", { viewBox: "0 0 540 150", class: "setup-pic", role: "img", "aria-label": code });
  el("rect", { x: 0, y: 0, width: 540, height: 150, rx: 10, fill: "var(--wood)" }, svg);
  const sp = 60, mg = 30;
  drawGrid(svg, 9, 2, sp, mg);
  const letters = code.split("");
  const back = ["chariot", letters[0], letters[1], "guard", null, "guard", letters[2], letters[3], "chariot"]
    .map(k => k === "M" ? "horse" : k === "S" ? "elephant" : k);
  back.forEach((kind, f) => { if (kind) drawPiece(svg, mg + f * sp, mg + sp, { side, kind }, 0); });
  drawPiece(svg, mg + 4 * sp, mg, { side, kind: "general" }, 0);
  return svg;
}
