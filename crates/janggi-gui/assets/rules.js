// The rules view: each piece's moves animated on a small board, the
// blocked leg (멱) and the cannon's screen (포다리), bikjang and the
// count, in Korean with English beside. These are pictures of fixed
// examples; the board's referee is still the server.
"use strict";

const Rules = (() => {
  // Points as [file 0–8 (a–i), rank 0–9 (1–10)], Cho at the bottom.
  const P = (side, kind, f, r) => ({ side, kind, f, r });
  const EXAMPLES = [
    {
      id: "chariot", title: "차 車 · Chariot",
      ko: "가로세로로 막히지 않은 만큼 가요. 궁성 안에서는 대각선도 따라가요.",
      en: "Any distance along a file or rank until blocked; along the palace diagonals too.",
      pieces: [P("cho", "chariot", 1, 4), P("han", "soldier", 1, 7), P("cho", "soldier", 5, 4)],
      dests: [[1, 5], [1, 6], [1, 7], [1, 3], [1, 2], [1, 1], [1, 0], [0, 4], [2, 4], [3, 4], [4, 4]],
    },
    {
      id: "cannon", title: "포 包 · Cannon",
      ko: "기물 하나(포다리)를 넘어서만 가고 잡아요. 포는 포를 넘지도 잡지도 못해요.",
      en: "Moves and captures only by jumping exactly one piece (the screen, 포다리); never over or onto a cannon.",
      pieces: [P("cho", "cannon", 1, 2), P("cho", "soldier", 1, 5), P("han", "horse", 1, 8), P("cho", "cannon", 6, 2), P("han", "cannon", 6, 5)],
      screens: [[1, 5], [6, 5]],
      dests: [[1, 6], [1, 7], [1, 8]],
      blocked: [[6, 6], [6, 7]],
    },
    {
      id: "horse", title: "마 馬 · Horse",
      ko: "한 칸 곧게, 한 칸 대각선으로 가요. 곧은 첫 칸이 막히면(멱) 못 가요.",
      en: "One point straight, then one diagonally outward; a piece on the first point blocks it (멱).",
      pieces: [P("cho", "horse", 4, 4), P("cho", "soldier", 4, 5)],
      legs: [[4, 5]],
      dests: [[2, 5], [2, 3], [6, 5], [6, 3], [3, 2], [5, 2]],
      blocked: [[3, 6], [5, 6]],
    },
    {
      id: "elephant", title: "상 象 · Elephant",
      ko: "한 칸 곧게, 두 칸 대각선으로 가요. 가는 길의 어느 칸이라도 막히면(멱) 못 가요.",
      en: "One point straight, then two diagonally; a piece on either point on the way blocks it (멱).",
      pieces: [P("cho", "elephant", 4, 4), P("han", "soldier", 5, 6)],
      legs: [[5, 6]],
      dests: [[2, 7], [2, 1], [6, 1], [1, 6], [1, 2], [7, 6], [7, 2]],
      blocked: [[6, 7]],
    },
    {
      id: "palace", title: "궁·사 楚 士 · General and guards",
      ko: "궁성 안에서 선을 따라 한 칸씩 가요. 궁성 밖으로는 못 나가요.",
      en: "One point along the lines, never out of the palace.",
      pieces: [P("cho", "general", 4, 1), P("cho", "guard", 3, 0), P("cho", "guard", 5, 0)],
      dests: [[3, 1], [5, 1], [3, 2], [4, 2], [5, 2], [4, 0]],
    },
    {
      id: "soldier", title: "졸·병 卒 兵 · Soldiers",
      ko: "앞이나 옆으로 한 칸씩 가요. 뒤로는 못 가요. 상대 궁성 안에서는 대각선 앞으로도 가요.",
      en: "One point forward or sideways, never back; in the enemy palace also diagonally forward.",
      pieces: [P("cho", "soldier", 3, 7), P("han", "general", 4, 8)],
      dests: [[3, 8], [2, 7], [4, 7], [4, 8]],
    },
    {
      id: "bikjang", title: "빅장 · Bikjang",
      ko: "두 궁이 사이에 아무것도 없이 마주 보면 빅장이에요. 빅장을 받은 쪽이 풀지 않으면 점수로 대국이 끝나요.",
      en: "Generals facing on one file with nothing between is bikjang; unless the other side breaks it, the game ends on points.",
      pieces: [P("cho", "general", 4, 1), P("han", "general", 4, 8), P("cho", "guard", 3, 0), P("han", "guard", 5, 9)],
      facing: [[4, 1], [4, 8]],
      dests: [[3, 8], [5, 8]],
      moverIndex: 1,
    },
  ];

  const COUNT = {
    ko: "점수(계가): 차 13, 포 7, 마 5, 상 3, 사 3, 졸·병 2. 한은 후수라 덤 1.5점을 더해 시작은 초 72 : 한 73.5예요. 두 번 이어서 한수쉼을 하거나 수 제한에 닿거나 빅장이 풀리지 않으면 점수가 많은 쪽이 이겨요.",
    en: "Counting: chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2; Han moves second and gets 1.5 (deom): the start is Cho 72 : Han 73.5. Two passes in a row, the move limit or an unbroken bikjang end the game, and the higher count wins.",
  };

  let timer = null;

  const px = (f, r) => [M + f * S, M + (9 - r) * S];

  // The part of the board an example uses, a point more on each side
  // (at least five files wide): the pieces show larger than on a whole
  // board.
  function crop(ex) {
    const pts = ex.pieces.map(p => [p.f, p.r]).concat(ex.dests, ex.blocked || [], ex.screens || [], ex.legs || []);
    let f0 = Math.min(...pts.map(p => p[0])) - 1, f1 = Math.max(...pts.map(p => p[0])) + 1;
    const r0 = Math.max(0, Math.min(...pts.map(p => p[1])) - 1), r1 = Math.min(9, Math.max(...pts.map(p => p[1])) + 1);
    while (f1 - f0 < 4) { f0--; f1++; }
    f0 = Math.max(0, f0); f1 = Math.min(8, f1);
    const pad = 36;
    return [M + f0 * S - pad, M + (9 - r1) * S - pad, (f1 - f0) * S + 2 * pad, (r1 - r0) * S + 2 * pad].join(" ");
  }

  function miniBoard(ex) {
    const svg = el("svg", { viewBox: crop(ex), class: "rules-board", "data-example": ex.id, role: "img", "aria-label": ex.title });
    el("rect", { x: 0, y: 0, width: 560, height: 620, rx: 14, fill: "var(--wood)" }, svg);
    drawGrid(svg, 9, 10, S, M);
    for (const [f, r] of ex.screens || []) { const [x, y] = px(f, r); el("circle", { cx: x, cy: y, r: 36, fill: "rgba(120,120,255,.35)", class: "screen" }, svg); }
    for (const [f, r] of ex.legs || []) { const [x, y] = px(f, r); el("circle", { cx: x, cy: y, r: 36, fill: "rgba(230,120,0,.35)", class: "leg" }, svg); }
    if (ex.facing) {
      const [[a, b], [c, d]] = ex.facing; const [x1, y1] = px(a, b), [x2, y2] = px(c, d);
      el("line", { x1, y1, x2, y2, stroke: "#c00", "stroke-width": 6, "stroke-dasharray": "14 10", class: "facing" }, svg);
    }
    for (const [f, r] of ex.dests) { const [x, y] = px(f, r); el("circle", { cx: x, cy: y, r: 11, fill: "rgba(20,140,60,.8)", class: "dot" }, svg); }
    for (const [f, r] of ex.blocked || []) {
      const [x, y] = px(f, r);
      const g = el("g", { stroke: "#d00", "stroke-width": 7, class: "blocked" }, svg);
      el("line", { x1: x - 14, y1: y - 14, x2: x + 14, y2: y + 14 }, g);
      el("line", { x1: x + 14, y1: y - 14, x2: x - 14, y2: y + 14 }, g);
    }
    const mover = ex.moverIndex || 0;
    ex.pieces.forEach((p, i) => {
      const [x, y] = px(p.f, p.r);
      const g = drawPiece(svg, x, y, p, 16, i === mover ? { "data-mover": "1" } : {});
      if (i === mover) g.style.transition = "transform .45s ease-in-out";
    });
    // The mover on top of the marks.
    const m = svg.querySelector("[data-mover]");
    if (m) svg.appendChild(m);
    return svg;
  }

  // One step of every board's animation: the moving piece goes to its
  // next destination and back.
  function step(n) {
    for (const svg of document.querySelectorAll(".rules-board")) {
      const ex = EXAMPLES.find(e => e.id === svg.dataset.example);
      const m = svg.querySelector("[data-mover]");
      if (!ex || !m) continue;
      const p = ex.pieces[ex.moverIndex || 0];
      if (n % 2 === 1) { m.style.transform = ""; m.dataset.at = ""; continue; }
      const [f, r] = ex.dests[(n / 2) % ex.dests.length];
      const [x0, y0] = px(p.f, p.r), [x1, y1] = px(f, r);
      m.style.transform = `translate(${x1 - x0}px, ${y1 - y0}px)`;
      m.dataset.at = FILES[f] + (r + 1);
    }
  }

  function html() {
    let h = `<h2 id="rules-title">장기 규칙 <span class="en">/ Janggi rules</span></h2><div class="rules-grid">`;
    for (const ex of EXAMPLES) {
      h += `<section class="rules-item" data-rule="${ex.id}"><h3>${ex.title}</h3><div class="rules-pic"></div><p class="ko">${ex.ko}</p><p class="en">${ex.en}</p></section>`;
    }
    h += `<section class="rules-item" data-rule="count"><h3>점수 · Counting</h3><p class="ko">${COUNT.ko}</p><p class="en">${COUNT.en}</p></section>`;
    h += `</div><div class="row"><button id="btn-rules-close">닫기 / Close</button></div>`;
    return h;
  }

  function open(openModal, closeModal) {
    openModal("rules", html());
    for (const ex of EXAMPLES) document.querySelector(`.rules-item[data-rule="${ex.id}"] .rules-pic`).appendChild(miniBoard(ex));
    let n = 0;
    clearInterval(timer);
    step(n);
    timer = setInterval(() => { n++; step(n); }, 650);
    document.getElementById("btn-rules-close").addEventListener("click", () => { close(); closeModal(); });
  }

  function close() { clearInterval(timer); timer = null; }

  return { open, close, EXAMPLES };
})();
