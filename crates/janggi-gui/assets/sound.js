// Sound: every effect is synthesised in the page with Web Audio (no
// recordings), a mute switch the browser remembers (localStorage), and
// an optional spoken call (speechSynthesis) where the browser has a
// Korean voice. `Sound.log` lists every sound the page played, so a test
// without audio hardware can read what a player would have heard.
"use strict";

const Sound = (() => {
  const MUTE_KEY = "janggi.sound.muted";
  const VOICE_KEY = "janggi.sound.voice";
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode: not remembered */ } },
  };
  const log = [];       // sounds played: {name, at}
  const spoken = [];    // calls spoken
  let ctx = null;
  let muted = store.get(MUTE_KEY) === "1";
  let voice = store.get(VOICE_KEY) === "1";

  function audio() {
    if (!ctx) {
      const C = window.AudioContext || window.webkitAudioContext;
      if (!C) return null;
      try { ctx = new C(); } catch (e) { return null; }
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    return ctx;
  }

  // A tone with a quick attack and an exponential fade.
  function tone(c, t0, freq, dur, type, gain, slideTo) {
    const o = c.createOscillator(), g = c.createGain();
    o.type = type;
    o.frequency.setValueAtTime(freq, t0);
    if (slideTo) o.frequency.exponentialRampToValueAtTime(slideTo, t0 + dur);
    g.gain.setValueAtTime(0.0001, t0);
    g.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
    o.connect(g).connect(c.destination);
    o.start(t0); o.stop(t0 + dur + 0.03);
  }

  // A wooden knock: filtered noise, the piece set down on the board.
  function knock(c, t0, freq, gain) {
    const n = Math.floor(c.sampleRate * 0.09);
    const buf = c.createBuffer(1, n, c.sampleRate);
    const d = buf.getChannelData(0);
    for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 4);
    const src = c.createBufferSource(), f = c.createBiquadFilter(), g = c.createGain();
    src.buffer = buf; f.type = "bandpass"; f.frequency.value = freq; f.Q.value = 4; g.gain.value = gain;
    src.connect(f).connect(g).connect(c.destination);
    src.start(t0);
    tone(c, t0, freq / 2, 0.08, "sine", gain * 0.5);
  }

  const RECIPES = {
    move: (c, t) => knock(c, t, 900, 0.9),
    capture: (c, t) => { knock(c, t, 700, 1); knock(c, t + 0.07, 1100, 0.8); tone(c, t, 160, 0.18, "triangle", 0.35); },
    pass: (c, t) => tone(c, t, 520, 0.15, "sine", 0.12, 390),
    check: (c, t) => { tone(c, t, 440, 0.16, "square", 0.12); tone(c, t + 0.16, 660, 0.32, "square", 0.14); },
    checkAnswered: (c, t) => { tone(c, t, 660, 0.16, "triangle", 0.2); tone(c, t + 0.16, 440, 0.3, "triangle", 0.2); },
    bikjang: (c, t) => { for (let i = 0; i < 3; i++) tone(c, t + i * 0.14, 330 - i * 40, 0.22, "sawtooth", 0.1); },
    tick: (c, t) => tone(c, t, 1320, 0.06, "square", 0.08),
    lastTick: (c, t) => tone(c, t, 1760, 0.12, "square", 0.12),
    gameEnd: (c, t) => [523, 659, 784, 1047].forEach((f, i) => tone(c, t + i * 0.12, f, 0.4, "triangle", 0.16)),
  };
  const CALLS = { check: "장군", checkAnswered: "멍군", bikjang: "빅장" };

  function koreanVoice() {
    if (!window.speechSynthesis) return null;
    return speechSynthesis.getVoices().find(v => (v.lang || "").toLowerCase().startsWith("ko")) || null;
  }

  function speak(word) {
    const v = koreanVoice();
    if (!v) return;
    const u = new SpeechSynthesisUtterance(word + "!");
    u.voice = v; u.lang = v.lang; u.rate = 1.05;
    speechSynthesis.speak(u);
    spoken.push(word);
  }

  function play(name) {
    if (muted || !RECIPES[name]) return;
    log.push({ name, at: Date.now() });
    const c = audio();
    if (c) { try { RECIPES[name](c, c.currentTime + 0.01); } catch (e) { /* no audio device */ } }
    if (voice && CALLS[name]) speak(CALLS[name]);
  }

  function setMuted(on) { muted = !!on; store.set(MUTE_KEY, muted ? "1" : "0"); }
  function setVoice(on) { voice = !!on; store.set(VOICE_KEY, voice ? "1" : "0"); }

  return {
    play, setMuted, setVoice, log, spoken,
    get muted() { return muted; },
    get voice() { return voice; },
    hasKoreanVoice: () => koreanVoice() !== null,
  };
})();
