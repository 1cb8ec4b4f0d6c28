// The page of `janggi-engine gui`. It holds no rules: legal destinations,
// refusals, check, bikjang, repetition and results all come from the
// server's game layer; the page draws them and sends clicks.
"use strict";

// Drawing helpers (el, drawPiece, setupPicture, S, M, FILES) are in
// pieces.js, the sound in sound.js, the rules view in rules.js, the
// panels beside the board (analysis, engine, markers, review, records)
// in panels.js.
const CARDS = [
  ["MSSM", "안상차림", "원앙마"],
  ["SMMS", "바깥상차림", "양귀마"],
  ["SMSM", "왼상차림", "귀마"],
  ["MSMS", "오른상차림", "귀마"],
];

let state = null;       // the server's view
let selected = null;    // selected point, e.g. "b1"
let targets = [];       // destinations of the selected piece
let flipped = null;     // null: my side at the bottom; true/false: forced
let lastPly = -1;
let analysis = null;
let sseEvents = 0;
let clockAt = 0;        // when the last clock view arrived (performance.now())
let viewPly = null;     // null: the live position; else the ply shown read-only
let viewed = null;      // the server's position at viewPly (POST /api/position)
let prevPieces = null;  // pieces on the board at the last state (a capture takes one)

const $ = (id) => document.getElementById(id);

function sqName(f, r) { return FILES[f] + (r + 1); }
function sqParse(s) { return { f: FILES.indexOf(s[0]), r: parseInt(s.slice(1), 10) - 1 }; }

function bottomSide() {
  let mine = "cho";
  if (state && state.settings && state.settings.mode === "hve" && state.settings.human) mine = state.settings.human;
  if (flipped) mine = mine === "cho" ? "han" : "cho";
  return mine;
}

function xy(f, r) {
  if (bottomSide() === "cho") return [M + f * S, M + (9 - r) * S];
  return [M + (8 - f) * S, M + r * S];
}

// The Hangul label's size in SVG units: 11 on a wide board, and never
// under 10.5 px on the screen (a 360 px phone draws the board at ~0.6).
function labelSize() {
  const w = $("board").getBoundingClientRect().width || 560;
  return Math.max(11, 10.5 * 560 / w);
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: { ko: "서버 응답을 읽을 수 없어요", en: String(e) } }; }
  if (data && data.state) render(data.state);
  return { ok: res.ok, status: res.status, data };
}

function say(text, refused) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("refused", !!refused);
}

function drawBoard() {
  const svg = $("board");
  svg.innerHTML = "";
  el("rect", { x: 0, y: 0, width: 560, height: 620, rx: 14, fill: "var(--wood)" }, svg);
  drawGrid(svg, 9, 10, S, M);
  el("rect", { x: M - 6, y: M - 6, width: 8 * S + 12, height: 9 * S + 12, stroke: "var(--line)", "stroke-width": 3, fill: "none" }, svg);
  if (!state) return;
  const shown = viewed || state;

  const last = shown.lastMove;
  if (last) {
    for (const s of [last.from, last.to]) {
      const p = sqParse(s); const [x, y] = xy(p.f, p.r);
      el("rect", { x: x - 28, y: y - 28, width: 56, height: 56, rx: 8, fill: "rgba(255,230,0,.35)", class: "last" }, svg);
    }
  }
  const threatened = new Set(viewed ? [] : (state.threatened || []));
  const screens = new Set(targets.map(t => t.screen).filter(Boolean));
  const label = $("opt-hangul").checked ? labelSize() : 0;
  // Lasting markers: the checked general until the check is answered, the
  // facing generals while a bikjang waits for its answer.
  const live = !viewed && state.phase === "playing";
  const checked = (viewed ? viewed.inCheck : live && state.inCheck) ? shown.sideToMove : null;
  if (live && state.pendingBikjang) {
    const gens = shown.board.filter(p => p.kind === "general").map(p => xy(p.f, p.r));
    if (gens.length === 2) el("line", { x1: gens[0][0], y1: gens[0][1], x2: gens[1][0], y2: gens[1][1], stroke: "#c00", "stroke-width": 6, "stroke-dasharray": "14 10", class: "bikjang-line" }, svg);
  }
  let zoomed = null;
  for (const p of shown.board) {
    const [x, y] = xy(p.f, p.r);
    const rad = RADIUS[pieceSize(p.kind)];
    if (screens.has(p.sq)) el("circle", { cx: x, cy: y, r: rad + 6, fill: "rgba(120,120,255,.35)", class: "screen" }, svg);
    if (threatened.has(p.sq)) el("circle", { cx: x, cy: y, r: rad + 5, fill: "none", stroke: "#f80", "stroke-width": 3, "stroke-dasharray": "5 4" }, svg);
    if (p.kind === "general" && p.side === checked) el("circle", { cx: x, cy: y, r: rad + 8, fill: "rgba(230,0,0,.25)", stroke: "#e00", "stroke-width": 4, class: "check-mark" }, svg);
    const pg = drawPiece(svg, x, y, p, label, { "data-sq": p.sq });
    if (p.sq === selected) {
      // The selected piece is drawn bigger, on top, with its halo.
      pg.classList.add("selected");
      pg.insertBefore(el("circle", { cx: x, cy: y, r: rad + 7, fill: "rgba(255,215,0,.55)" }), pg.firstChild);
      pg.setAttribute("transform", `translate(${x} ${y}) scale(1.3) translate(${-x} ${-y})`);
      zoomed = pg;
    }
  }
  if (zoomed) svg.appendChild(zoomed);
  for (const t of targets) {
    const p = sqParse(t.to); const [x, y] = xy(p.f, p.r);
    if (t.capture) el("circle", { cx: x, cy: y, r: 30, fill: "none", stroke: "#e00", "stroke-width": 4, class: "capture" }, svg);
    else el("circle", { cx: x, cy: y, r: 9, fill: "rgba(20,140,60,.8)", class: "dot" }, svg);
  }
  // Touch targets: the whole square around each point.
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const [x, y] = xy(f, r);
    el("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, fill: "transparent", class: "hit", "data-sq": sqName(f, r) }, svg);
  }
}

async function clickPoint(sq) {
  if (viewed) { say("지난 수를 보는 중이에요: ▶| 로 지금 판으로 / viewing an earlier position"); return; }
  if (!state || state.phase !== "playing") return;
  if (!state.humanToMove) { say("지금은 엔진 차례예요 / the engine is thinking"); return; }
  const piece = state.board.find(p => p.sq === sq);
  if (piece && piece.side === state.sideToMove) {
    // A new selection: the last refusal no longer applies.
    say("");
    if (selected === sq) { selected = null; targets = []; drawBoard(); return; }
    selected = sq;
    const r = await api("/api/moves", { from: sq });
    // A later click may have moved on while this answer was on its way.
    if (selected !== sq) return;
    targets = r.ok ? r.data.destinations : [];
    drawBoard();
    return;
  }
  if (!selected) { if (piece) say("자기 기물을 고르세요 / pick one of your pieces"); return; }
  const from = selected;
  selected = null; targets = [];
  const r = await api("/api/move", { from, to: sq });
  if (!r.ok) {
    const e = r.data && r.data.error;
    say(e ? e.ko + " — " + e.en : "둘 수 없어요", true);
  } else {
    say("");
  }
  drawBoard();
}

// The 장군!/멍군!/빅장! bubbles queue: each shows for its time, none is
// overwritten by the next. `bubbleLog` lists every bubble shown.
const bubbles = [];
const bubbleLog = [];
function banner(text, side) {
  bubbles.push({ text, side });
  if (bubbles.length === 1) showBubble();
}
function showBubble() {
  const b = $("banner"), next = bubbles[0];
  if (!next) { b.classList.add("hidden"); return; }
  b.textContent = next.text;
  b.className = next.side === "cho" ? "cho" : "";
  bubbleLog.push(next.text);
  setTimeout(() => { bubbles.shift(); showBubble(); }, bubbles.length > 1 ? 1000 : 1600);
}

function fmtPoints(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1); }

function render(s) {
  if (state && s.version !== undefined && state.version !== undefined && s.version < state.version) return;
  const prevPly = lastPly;
  const prevPhase = state ? state.phase : null;
  state = s;
  $("scorebar").title = s.score.text;
  $("repetition").classList.toggle("hidden", !s.repetitionWarning);
  clockAt = performance.now();
  renderClocks();
  // The server's report is the engine's view of this position; after an
  // undo or a new game there is none, and the panel says so.
  analysis = s.analysis || null;
  renderAnalysis();
  renderEngine(s);
  if (viewPly !== null && viewPly > s.moves.length) { viewPly = null; viewed = null; }
  renderMoveList();
  renderReview();
  if (s.ply > prevPly && prevPly >= 0 && s.moves.length) {
    const m = s.moves[s.moves.length - 1];
    const captured = prevPieces !== null && s.board.length < prevPieces;
    Sound.play(m.korean === "한수쉼" ? "pass" : captured ? "capture" : "move");
    if (m.events.includes("checkAnswered")) { banner("멍군!", m.side); Sound.play("checkAnswered"); }
    if (m.events.includes("bikjang")) { banner("빅장!", m.side); Sound.play("bikjang"); }
    if (m.events.includes("check")) { banner("장군!", m.side); Sound.play("check"); }
  }
  if (s.phase === "finished" && prevPhase === "playing") Sound.play("gameEnd");
  prevPieces = s.phase === "playing" ? s.board.length : null;
  lastPly = s.ply;
  renderMarkers(s);
  const playing = s.phase === "playing";
  $("btn-pass").disabled = !(playing && s.humanToMove && s.settings.allowPass);
  $("btn-undo").disabled = !(playing || s.phase === "finished") || s.moves.length === 0 || s.undoLeft === 0;
  $("btn-undo").textContent = s.undoLeft === null || s.undoLeft === undefined ? "무르기" : `무르기 (${s.undoLeft})`;
  $("btn-draw").disabled = !playing || !s.settings.drawOffer;
  $("btn-resign").disabled = !playing;
  if (!s.humanToMove) { selected = null; targets = []; }
  drawBoard();
  if (["new", "confirm", "load", "rules"].includes(modalKind)) return;
  if (s.pending && s.phase === "playing") { showConsent(s.pending); return; }
  if (modalKind === "consent") closeModal();
  if (s.phase === "setup") showSetup(s.setup.next);
  else if (s.phase === "finished") showResult();
  else if (modalKind && (modalKind.startsWith("setup") || modalKind.startsWith("result"))) closeModal();
}

// A draw offer or undo between two humans: the other player answers.
function showConsent(p) {
  const key = "consent-" + p.ask + "-" + p.by;
  if (modalKind === "consent" && $("dialog").dataset.key === key) return;
  const by = p.by === "cho" ? "초" : "한", other = p.by === "cho" ? "한" : "초";
  openModal("consent", `<h2 id="consent-title">${by}이 ${p.ko}</h2><p class="en">${p.by === "cho" ? "Cho" : "Han"} ${p.en}</p><p>${other} 차례의 대답 / the other player answers:</p>` +
    `<div class="row" style="display:flex;gap:8px;justify-content:flex-end"><button id="consent-yes">받기 / Accept</button><button id="consent-no">거절 / Decline</button></div>`);
  modalKind = "consent";
  $("dialog").dataset.key = key;
  const answer = async (accept) => {
    closeModal();
    const r = await api("/api/answer", { accept });
    if (r.ok) say(r.data.ko + " / " + r.data.en, !r.data.accepted);
    else say(r.data.error.ko + " — " + r.data.error.en, true);
  };
  $("consent-yes").addEventListener("click", () => answer(true));
  $("consent-no").addEventListener("click", () => answer(false));
}

// The move list: Korean notation, UCI, and the analysis' marks; a click
// shows the position after that move (read-only).
function renderMoveList() {
  const s = state;
  const marks = {};
  if (s.review && s.review.moves) for (const r of s.review.moves) marks[r.ply] = r;
  const ml = $("movelist"); ml.innerHTML = "";
  const current = viewPly === null ? s.moves.length : viewPly;
  s.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.className = m.side + (i + 1 === current ? " current" : "");
    li.dataset.ply = String(i + 1);
    li.innerHTML = `<span class="k"></span><span class="tags"></span><span class="mark"></span><span class="u"></span>`;
    li.querySelector(".k").textContent = m.korean.replace(/ 장군$/, "");
    const tags = [["checkAnswered", "멍군"], ["check", "장군"], ["bikjang", "빅장"]].filter(([e]) => m.events.includes(e));
    for (const [e, t] of tags) {
      const tag = document.createElement("span");
      tag.className = "tag " + e; tag.textContent = t;
      li.querySelector(".tags").appendChild(tag);
    }
    li.querySelector(".u").textContent = m.uci;
    const r = marks[i + 1];
    if (r && r.mark) {
      const e = li.querySelector(".mark");
      e.textContent = r.mark; e.classList.add(r.markName);
      e.title = `${r.loss}%p` + (r.best ? ` · 최선 ${r.best}` : "");
    }
    li.addEventListener("click", () => showPly(i + 1));
    ml.appendChild(li);
  });
  const cur = ml.querySelector("li.current");
  if (viewPly === null) ml.scrollTop = ml.scrollHeight;
  else if (cur) cur.scrollIntoView({ block: "nearest" });
  renderTurn();
  const n = s.moves.length;
  $("nav-ply").textContent = `${current} / ${n}`;
  $("nav-first").disabled = $("nav-prev").disabled = current === 0;
  $("nav-next").disabled = $("nav-last").disabled = viewPly === null;
  $("viewing").classList.toggle("hidden", viewPly === null);
}

// The score bar and the turn line: of the live game, or of the position
// being viewed.
function renderTurn() {
  const s = viewed || state;
  $("score-cho").textContent = "초 " + fmtPoints(s.score.cho);
  $("score-han").textContent = "한 " + fmtPoints(s.score.han);
  const who = s.sideToMove === "cho" ? "초" : "한";
  if (viewed) $("turn").textContent = `${who} 차례 · ${viewed.ply}수 (지난 수 보기)` + (viewed.inCheck ? " · 장군" : "");
  else $("turn").textContent = state.phase === "playing" ? `${who} 차례 · ${state.ply}수` + (state.inCheck ? " · 장군" : "") :
    state.phase === "setup" ? "상차림" : "대국 끝";
}

// Steps through the game: the server replays the record to `ply`.
async function showPly(ply) {
  if (!state) return;
  const n = state.moves.length;
  ply = Math.max(0, Math.min(n, ply));
  if (ply === n) {
    viewPly = null; viewed = null;
    if ($("message").textContent.startsWith("지난 수")) say("");
    renderMoveList(); drawBoard(); return;
  }
  const r = await api("/api/position", { ply });
  if (!r.ok) { say(r.data.error.ko + " — " + r.data.error.en, true); return; }
  viewPly = ply; viewed = r.data;
  selected = null; targets = [];
  renderMoveList(); drawBoard();
}
function stepBy(d) {
  if (!state) return;
  const cur = viewPly === null ? state.moves.length : viewPly;
  showPly(cur + d);
}

function mmss(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
}

// The byoyomi clocks: the server keeps time; the page counts down between views.
function renderClocks() {
  const c = state && state.clock;
  $("clocks").classList.toggle("hidden", !c);
  if (!c) return;
  for (const side of ["cho", "han"]) {
    const k = c[side];
    let main = k.mainMs, periods = k.periodsLeft, inPeriod = c.periodMs;
    if (c.running === side) {
      let used = c.elapsedMs + (performance.now() - clockAt);
      if (used <= main) main -= used;
      else {
        const over = used - main; main = 0;
        const n = Math.floor(over / c.periodMs);
        periods = Math.max(0, periods - n);
        inPeriod = c.periodMs - (over - n * c.periodMs);
      }
    }
    const name = side === "cho" ? "초" : "한";
    const text = main > 0 ? `${name} ${mmss(main)} (${c.periodMs / 1000}초×${periods})` : `${name} 초읽기 ${mmss(inPeriod)} ×${periods}`;
    const e = $("clock-" + side);
    e.textContent = text;
    e.classList.toggle("running", c.running === side);
    e.classList.toggle("low", c.running === side && main === 0 && periods <= 1);
    if (c.running === side && main === 0) countdown(side, inPeriod);
  }
}

// The byoyomi countdown: a tick each of the last 10 seconds of a period,
// a higher one at the last 3 (once per second and side).
let lastTick = null;
function countdown(side, msLeft) {
  const sec = Math.ceil(msLeft / 1000);
  const key = side + ":" + sec + ":" + state.ply;
  if (sec > 10 || sec < 1 || key === lastTick) return;
  lastTick = key;
  Sound.play(sec <= 3 ? "lastTick" : "tick");
}
setInterval(renderClocks, 250);

let modalKind = null;
function openModal(kind, html) {
  modalKind = kind;
  $("dialog").innerHTML = html;
  $("dialog").dataset.key = "";
  $("modal").classList.remove("hidden", "low");
}
function closeModal() { modalKind = null; Rules.close(); $("modal").classList.add("hidden"); }

function showSetup(next) {
  if (!next) return;
  if (modalKind === "setup-" + next) return;
  const sideKo = next === "han" ? "한" : "초";
  const engineSide = state.settings.mode === "eve" || (state.settings.mode === "hve" && state.settings.human !== next);
  let html = `<h2 id="setup-title">${sideKo}의 상차림 (${next === "han" ? "한이 먼저 차립니다" : "한의 상차림을 보고 고릅니다"})</h2>`;
  if (next === "cho" && state.setup.han) html += `<p>한: ${CARDS.find(c => c[0] === state.setup.han)[1]}</p>`;
  if (engineSide) html += `<p>엔진 쪽 상차림입니다.</p>`;
  html += `<div class="cards">`;
  for (const [code, name, alias] of CARDS) {
    html += `<button class="card" data-setup="${code}"><div class="pic"></div><div class="name">${name}</div><div class="alias">${alias} · ${code}</div></button>`;
  }
  html += `</div>`;
  if (engineSide) html += `<div class="row" style="margin-top:8px"><button class="card" data-setup="random">무작위</button></div>`;
  openModal("setup-" + next, html);
  // The board stays visible behind the cards (Han's choice on it).
  $("modal").classList.add("low");
  for (const b of document.querySelectorAll(".card[data-setup] .pic")) b.appendChild(setupPicture(b.parentNode.dataset.setup, next));
  for (const b of document.querySelectorAll(".card[data-setup]")) {
    b.addEventListener("click", async () => {
      const r = await api("/api/setup", { side: next, setup: b.dataset.setup });
      if (!r.ok) say(r.data.error.ko + " — " + r.data.error.en, true);
    });
  }
}

function showResult() {
  if (modalKind === "result" || modalKind === "result-closed") return;
  const res = state.result;
  if (!res) return;
  let html = `<h2>대국 결과</h2><div class="result-summary" id="result">${res.summaryKo}</div><div class="result-en">${res.summaryEn}</div>`;
  html += graphSvg();
  html += `<div class="row" style="margin-top:10px;display:flex;gap:8px;justify-content:flex-end"><button id="btn-result-new">새 대국</button><button id="btn-result-close">닫기</button></div>`;
  openModal("result", html);
  $("btn-result-new").addEventListener("click", () => showNew());
  $("btn-result-close").addEventListener("click", () => { closeModal(); modalKind = "result-closed"; });
}

function confirmBox(question, yes, note) {
  openModal("confirm", `<h2>${question}</h2>${note || ""}<div class="row" style="display:flex;gap:8px;justify-content:flex-end"><button id="confirm-yes">예</button><button id="confirm-no">아니요</button></div>`);
  $("confirm-yes").addEventListener("click", async () => { closeModal(); await yes(); });
  $("confirm-no").addEventListener("click", () => { closeModal(); if (state) render(state); });
}

function showNew() {
  openModal("new", $("tpl-new").innerHTML);
  const form = $("new-form");
  $("btn-cancel").addEventListener("click", () => { closeModal(); if (state) render(state); });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const body = {
      mode: f.get("mode"), human: f.get("human"), level: f.get("level"),
      rules: {
        scoring: f.get("scoring") === "true", bikjang: f.get("bikjang"), repetition: f.get("repetition"),
        allowPass: f.get("allowPass") === "true", moveLimit: parseInt(f.get("moveLimit"), 10),
      },
      undo: f.get("undo"), hints: f.get("hints"),
    };
    const time = f.get("time");
    if (time && time !== "none") {
      const [mainSec, periodSec, periods] = time.split("/").map(Number);
      body.timeControl = { kind: "byoyomi", mainSec, periodSec, periods };
    }
    const skill = f.get("skill");
    if (skill !== "" && skill !== null) body.skill = parseInt(skill, 10);
    closeModal();
    selected = null; targets = []; analysis = null; lastPly = -1; viewPly = null; viewed = null;
    say(""); // the last game's messages go with it
    const r = await api("/api/new", body);
    if (!r.ok) say(r.data.error.ko + " — " + r.data.error.en, true);
  });
}

// The pass asks first, and says when a pass (or the reply pass) ends the
// game, with the score it would end on (the server's referee tells).
$("btn-pass").addEventListener("click", () => {
  const w = state && state.passWarning;
  const note = w ? `<p class="pass-warning${w.atOnce ? " at-once" : ""}" id="pass-warning">${w.ko}<br><span class="en">${w.en}</span></p>` : "";
  confirmBox("한수쉼을 할까요? / Pass this turn?", async () => {
    const r = await api("/api/pass", { confirm: true });
    say(r.ok ? "한수쉼" : r.data.error.ko + " — " + r.data.error.en, !r.ok);
  }, note);
});
$("btn-undo").addEventListener("click", async () => {
  const r = await api("/api/undo", {});
  if (!r.ok) say(r.data.error.ko + " — " + r.data.error.en, true);
  else if (r.data.asked) say("무르기를 청했어요: 상대가 들어줘야 해요 / undo asked: the other player must allow it");
  else { if (modalKind === "consent") closeModal(); say("무르기"); }
});
$("btn-draw").addEventListener("click", async () => {
  const r = await api("/api/draw", {});
  if (r.ok) say((r.data.ko || (r.data.accepted ? "무승부가 합의되었어요" : "무승부 제안을 거절했어요")) + " / " + (r.data.en || ""), !r.data.accepted && r.data.reason !== "offered");
  else say(r.data.error.ko, true);
});
$("btn-engine-restart").addEventListener("click", async () => {
  const r = await api("/api/engine/restart", {});
  say(r.ok ? "엔진을 다시 시작해요 / restarting the engine" : r.data.error.ko + " — " + r.data.error.en, !r.ok);
});
$("btn-rules").addEventListener("click", () => Rules.open(openModal, () => { if (state) render(state); }));
$("opt-sound").checked = !Sound.muted;
$("opt-sound").addEventListener("change", () => Sound.setMuted(!$("opt-sound").checked));
$("opt-voice").checked = Sound.voice;
$("opt-voice").addEventListener("change", () => Sound.setVoice($("opt-voice").checked));
// Voices load late in some browsers; without a Korean one the switch says so.
function voiceAvailable() {
  const ok = Sound.hasKoreanVoice();
  $("opt-voice").disabled = !ok;
  $("opt-voice").parentNode.title = ok ? "장군/멍군/빅장을 소리 내어 불러요" : "이 브라우저에는 한국어 음성이 없어요 / no Korean voice in this browser";
}
voiceAvailable();
if (window.speechSynthesis) speechSynthesis.addEventListener("voiceschanged", voiceAvailable);
window.addEventListener("resize", () => { if ($("opt-hangul").checked) drawBoard(); });
$("btn-resign").addEventListener("click", () => confirmBox("기권할까요? / Resign?", async () => { await api("/api/resign", {}); }));
$("nav-first").addEventListener("click", () => showPly(0));
$("nav-prev").addEventListener("click", () => stepBy(-1));
$("nav-next").addEventListener("click", () => stepBy(1));
$("nav-last").addEventListener("click", () => showPly(Infinity));
document.addEventListener("keydown", (e) => {
  // Not while a dialog is open (the closed result modal keeps its kind).
  if (!$("modal").classList.contains("hidden") || e.target.closest("input, textarea, select")) return;
  if (e.key === "ArrowLeft") { e.preventDefault(); stepBy(-1); }
  else if (e.key === "ArrowRight") { e.preventDefault(); stepBy(1); }
  else if (e.key === "Home") { e.preventDefault(); showPly(0); }
  else if (e.key === "End") { e.preventDefault(); showPly(Infinity); }
});
$("btn-analyse").addEventListener("click", async () => {
  const r = await api("/api/analyse", {});
  if (!r.ok) say(r.data.error.ko + " — " + r.data.error.en, true);
});
$("btn-load").addEventListener("click", () => showLoad());
for (const id of ["save-gib", "save-pgn"]) {
  // A failed save (e.g. GIB of a game without a standard setup) is said on
  // the page instead of downloading an error.
  $(id).addEventListener("click", async (e) => {
    e.preventDefault();
    const res = await fetch($(id).getAttribute("href"));
    if (!res.ok) { const d = await res.json().catch(() => null); say(d ? d.error.ko + " — " + d.error.en : "저장하지 못했어요", true); return; }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a"); a.href = url; a.download = $(id).getAttribute("download");
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}
// The board's clicks are read on the <svg> itself, which outlives every
// redraw: a state update landing between the press and the release (the
// engine's move, a poll) replaces the squares, and a listener on a square
// would lose that click. Press and release on the same point make a click.
function pointAt(e) {
  const m = $("board").getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const [x, y] = xy(f, r);
    if (Math.abs(p.x - x) <= S / 2 && Math.abs(p.y - y) <= S / 2) return sqName(f, r);
  }
  return null;
}
let pressedAt = null;
$("board").addEventListener("pointerdown", (e) => { pressedAt = e.button === 0 ? pointAt(e) : null; });
$("board").addEventListener("pointercancel", () => { pressedAt = null; });
$("board").addEventListener("pointerup", (e) => {
  const sq = e.button === 0 ? pointAt(e) : null;
  if (sq && sq === pressedAt) clickPoint(sq);
  pressedAt = null;
});
$("btn-flip").addEventListener("click", () => { flipped = !flipped; drawBoard(); });
$("btn-new").addEventListener("click", () => showNew());
$("opt-hangul").addEventListener("change", () => drawBoard());

// The event stream needs the board's token (a foreign page's
// <img src=/api/events> has none and does not count as an open board).
// A refused stream (503 when too many are open, 403 after a server
// restart) is closed by the browser for good: it is asked again after a
// growing pause, with the token fetched anew.
let retryMs = 500;
async function connect() {
  let token = "";
  try { const r = await fetch("/api/token"); if (r.ok) token = (await r.json()).token; } catch (err) { /* asked again below */ }
  const es = new EventSource("/api/events?token=" + encodeURIComponent(token));
  es.addEventListener("state", (e) => { sseEvents++; try { render(JSON.parse(e.data)); } catch (err) { /* ignore */ } });
  es.addEventListener("analysis", (e) => {
    try { const d = JSON.parse(e.data); if (state) { state.review = Object.assign({}, state.review, { running: d }); renderReview(); } } catch (err) { /* ignore */ }
  });
  es.addEventListener("info", (e) => { try { analysis = JSON.parse(e.data); renderAnalysis(); } catch (err) { /* ignore */ } });
  es.addEventListener("engine", (e) => {
    try { const d = JSON.parse(e.data); say(d.message || "엔진 문제", true); } catch (err) { /* ignore */ }
  });
  es.onerror = () => {
    say("서버와 연결이 끊겼어요. 다시 연결하는 중… / reconnecting…", true);
    if (es.readyState === EventSource.CLOSED) { setTimeout(connect, retryMs); retryMs = Math.min(retryMs * 2, 8000); }
  };
  es.onopen = () => { retryMs = 500; if ($("message").textContent.startsWith("서버와")) say(""); };
}

(async function init() {
  drawBoard();
  const r = await api("/api/state");
  if (r.ok) render(r.data);
  if (state && state.phase === "setup" && state.setup.han === null && state.moves.length === 0) showNew();
  connect();
})();
