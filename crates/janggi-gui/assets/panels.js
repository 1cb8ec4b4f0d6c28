// The panels beside the board: the engine's evaluation and line, its
// status, the lasting check and bikjang markers, the review of the game,
// the record dialog and the result's graph. They read the page's state
// (app.js) and draw it; no rules here.
"use strict";

function renderAnalysis() {
  const a = analysis;
  if (!a || a.cp === null || a.cp === undefined) { $("evaltext").textContent = "–"; $("evalfill").style.width = "50%"; }
  else {
    const share = 1 / (1 + Math.exp(-a.cp / 400));
    $("evalfill").style.width = (share * 100).toFixed(1) + "%";
    $("evaltext").textContent = a.mate ? ("M" + a.mate) : ((a.cp >= 0 ? "+" : "") + (a.cp / 100).toFixed(2));
  }
  if (a && a.wdl) {
    const [w, d, l] = a.wdl; const t = Math.max(1, w + d + l);
    $("wdlbar").classList.remove("hidden");
    $("wdl-w").style.width = (100 * w / t) + "%"; $("wdl-d").style.width = (100 * d / t) + "%"; $("wdl-l").style.width = (100 * l / t) + "%";
    $("wdlbar").title = `초 ${w / 10}% · 무 ${d / 10}% · 한 ${l / 10}%`;
  } else $("wdlbar").classList.add("hidden");
  const line = a && (a.pvKorean && a.pvKorean.length ? a.pvKorean : a.pv);
  $("pv").textContent = line && line.length ? ("수읽기 d" + (a.depth ?? "?") + ": " + line.join(" · ")) : "";
}

// The engine's line: what it does, one message when it is down (the
// same the message box got) and then the restart button.
function renderEngine(s) {
  const es = s.engine || {};
  const down = ["down", "illegal"].includes(es.state);
  let status = "";
  if (s.settings.mode !== "hvh") {
    status = (es.name ? es.name + ": " : "엔진: ") + ({ idle: "대기", thinking: "생각 중…", restarting: "다시 시작하는 중", down: "멈춤", illegal: "멈춤" }[es.state] || es.state);
    if (down) status += " — " + (es.message || "엔진을 쓸 수 없어요");
    else if (es.lastCrash) status += " · " + es.lastCrash + " (" + es.crashes + ")";
    if (es.note) status += " · " + es.note;
  }
  $("engine-status").textContent = status;
  $("engine-status").classList.toggle("bad", down || es.state === "restarting" || !!es.lastCrash);
  $("btn-engine-restart").classList.toggle("hidden", s.settings.mode === "hvh" || !(down || es.lastCrash));
}

// The lasting notes under the score bar: a check until it is answered,
// a bikjang until it is broken (with the count it would end on).
function renderMarkers(s) {
  const live = s.phase === "playing";
  const side = s.sideToMove === "cho" ? "초" : "한";
  const check = $("mark-check"), bik = $("mark-bikjang");
  check.classList.toggle("hidden", !(live && s.inCheck));
  check.textContent = `장군! ${side}이 장군을 받았어요 / ${s.sideToMove === "cho" ? "Cho" : "Han"} is in check`;
  const w = s.bikjangWarning;
  bik.classList.toggle("hidden", !(live && s.pendingBikjang));
  bik.textContent = "빅장! " + (w ? `${w.ko} / ${w.en}` : "궁이 마주 보고 있어요 / the generals face each other");
}

function renderReview() {
  const s = state, rv = s.review || {};
  const started = s.phase !== "setup";
  $("btn-analyse").disabled = !started || s.moves.length === 0 || !!rv.running;
  for (const id of ["save-gib", "save-pgn"]) $(id).classList.toggle("hidden", !started);
  let text = "";
  if (rv.running) text = `분석 중… ${rv.running.done} / ${rv.running.total}`;
  else if (rv.error) text = rv.error;
  else if (rv.moves) {
    const side = (n, k) => `${n} 정확도 ${k.accuracy}% (?! ${k.inaccuracies} · ? ${k.mistakes} · ?? ${k.blunders})`;
    text = side("초", rv.cho) + " / " + side("한", rv.han);
  }
  if (s.source) text = `기보: ${s.source.cho || "?"} (초) – ${s.source.han || "?"} (한)` + (s.source.event ? " · " + s.source.event : "") + (s.source.date ? " · " + s.source.date : "") + ` · ${s.source.result}` + (text ? " · " + text : "");
  $("review-status").textContent = text;
  const g = $("review-graph");
  const svg = rv.svg || "";
  if (g.dataset.svg !== svg) { g.innerHTML = svg; g.dataset.svg = svg; }
}

function showLoad() {
  openModal("load", $("tpl-load").innerHTML);
  $("btn-load-close").addEventListener("click", () => { closeModal(); if (state) render(state); });
  $("btn-load-read").addEventListener("click", async () => {
    const file = $("load-file").files[0];
    const body = file ? await file.arrayBuffer() : new TextEncoder().encode($("load-text").value);
    const res = await fetch("/api/records/parse", { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body });
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: { ko: "서버 응답을 읽을 수 없어요", en: String(e) } }; }
    const list = $("load-games"); list.innerHTML = "";
    const err = $("load-error");
    err.classList.toggle("hidden", res.ok);
    if (!res.ok) err.textContent = data.error.ko + " — " + data.error.en;
    for (const g of (data.games || [])) {
      const li = document.createElement("li");
      if (g.ok) {
        const b = document.createElement("button");
        b.className = "load-game";
        b.textContent = `${g.cho || "?"} – ${g.han || "?"} · ${g.plies}수 · ${g.result}` + (g.event ? " · " + g.event : "") + (g.date ? " · " + g.date : "");
        b.addEventListener("click", async () => {
          const r = await api("/api/records/open", { index: g.index });
          if (!r.ok) { err.classList.remove("hidden"); err.textContent = r.data.error.ko + " — " + r.data.error.en; return; }
          closeModal(); viewPly = null; viewed = null; analysis = null; lastPly = -1;
          render(r.data.state);
          showPly(0);
          say("기보를 불러왔어요: ◀ ▶ 로 한 수씩 / loaded: step with ◀ ▶");
        });
        li.appendChild(b);
        if (g.warnings && g.warnings.length) li.appendChild(document.createTextNode(" ⚠ " + g.warnings.join("; ")));
      } else {
        li.className = "bad"; li.textContent = `대국 ${g.game}: ${g.error}`;
      }
      list.appendChild(li);
    }
  });
}

// Evaluation over the game: a line from Cho's side, big swings marked.
function graphSvg() {
  const evals = state.moves.map(m => m.eval);
  const W = 500, H = 160, n = Math.max(2, evals.length);
  const clamp = (v) => Math.max(-1000, Math.min(1000, v));
  const pts = []; const swings = [];
  let prev = null;
  evals.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const x = 10 + (W - 20) * i / (n - 1), y = H / 2 - (H / 2 - 10) * clamp(v) / 1000;
    pts.push(x.toFixed(1) + "," + y.toFixed(1));
    if (prev !== null && Math.abs(clamp(v) - clamp(prev)) >= 200) swings.push([x, y]);
    prev = v;
  });
  let s = `<svg id="graph" viewBox="0 0 ${W} ${H}"><rect x="0" y="0" width="${W}" height="${H / 2}" fill="rgba(11,107,203,.08)"/><rect x="0" y="${H / 2}" width="${W}" height="${H / 2}" fill="rgba(200,35,28,.08)"/>`;
  s += `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#999"/>`;
  if (pts.length > 1) s += `<polyline points="${pts.join(" ")}" fill="none" stroke="#333" stroke-width="2"/>`;
  for (const [x, y] of swings) s += `<circle cx="${x}" cy="${y}" r="5" fill="#f80" stroke="#000"/>`;
  s += `<text x="6" y="14" font-size="11" fill="#0b6bcb">초</text><text x="6" y="${H - 4}" font-size="11" fill="#c8231c">한</text></svg>`;
  if (!pts.length) s += `<p style="color:#777;font-size:.85rem">엔진 평가가 없는 대국이에요.</p>`;
  return s;
}
