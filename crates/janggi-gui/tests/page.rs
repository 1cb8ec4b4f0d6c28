//! The page's own features in headless Chromium (issue 35): the setup
//! cards' pictures with Han's choice on the board behind, the sounds the
//! page plays (read from `Sound.log`: no audio hardware needed) and the
//! mute switch the browser remembers, the Hangul label's size at 360 px,
//! the general drawn largest and the selected piece zoomed, the pass
//! warning, the rules view, the lasting check and bikjang markers with
//! the queued bubbles and the move list's tags, and a draw and an undo
//! that wait for the other player's answer. Screenshots at 360 × 740 and
//! 1280 × 800 go to `JANGGI_GUI_SHOTS` (else target/tmp/page-screenshots).
//!
//! Skips (passes, printing why) when no Chromium is installed.

mod common;

use common::chromium::{chromium_or_skip, Browser};
use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A position for check, 멍군 and bikjang in three moves (KJF rules):
/// Cho's chariot a1 checks along rank 9, Han's general steps up (멍군),
/// Cho's e4 soldier steps aside and the generals face (빅장).
const CHECK_RECORD: &str = "[Event \"Page\"]\n[White \"Cho\"]\n[Black \"Han\"]\n[Variant \"janggikjf\"]\n[SetUp \"1\"]\n[FEN \"3a4r/4k4/9/9/9/9/4P4/9/4K4/R2A5 w - - 0 1\"]\n\n*\n";

struct Shots {
    dir: PathBuf,
}

impl Shots {
    fn new() -> Shots {
        let dir = std::env::var_os("JANGGI_GUI_SHOTS").map_or_else(
            || Path::new(env!("CARGO_TARGET_TMPDIR")).join("page-screenshots"),
            PathBuf::from,
        );
        std::fs::create_dir_all(&dir).unwrap();
        Shots { dir }
    }

    /// `name` at 1280 × 800 and at 360 × 740 (touch), then back to 1280.
    fn both(&self, b: &mut Browser, name: &str) {
        for (w, h, mobile) in [(360, 740, true), (1280, 800, false)] {
            b.viewport(w, h, mobile);
            std::thread::sleep(Duration::from_millis(350));
            b.screenshot(&self.dir.join(format!("{name}-{w}.png")));
        }
    }
}

fn sounds(b: &mut Browser) -> Vec<String> {
    let v = b.eval("Sound.log.map(s => s.name)");
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// A move as a player makes it: the piece tapped, its destination dots
/// awaited, the destination tapped (a second tap sent before the dots
/// were drawn raced the page's own request on a loaded machine).
fn play(b: &mut Browser, from: &str, to: &str) {
    b.click_point(from);
    b.wait_until(
        "document.querySelectorAll('#board .dot').length > 0",
        &format!("the dots of {from}"),
    );
    b.click_point(to);
}

fn count(b: &mut Browser, selector: &str) -> u64 {
    let sel = serde_json::to_string(selector).unwrap();
    b.eval(&format!("document.querySelectorAll({sel}).length"))
        .as_u64()
        .unwrap()
}

#[test]
fn the_page_sounds_marks_warns_and_explains() {
    let Some(exe) = chromium_or_skip("the page test") else {
        return;
    };
    let shots = Shots::new();
    let s = server_with(&[]);
    let mut b = Browser::launch(&exe);
    b.viewport(1280, 800, false);
    b.call("Page.navigate", json!({"url": s.url()}), true);
    b.wait_until(
        "document.getElementById('new-form') !== null",
        "the new-game dialog",
    );
    b.eval("document.querySelector('#new-form [name=level]').value = 'easy'; true");
    b.click("#btn-start");

    // Setup: every card has a picture of its arrangement; once Han has
    // chosen, Han's pieces stand on the board behind Cho's cards, Cho's
    // horses and elephants not yet.
    b.wait_until(
        "document.getElementById('setup-title')?.textContent.startsWith('한')",
        "Han's cards",
    );
    assert_eq!(count(&mut b, ".card[data-setup] .setup-pic"), 4);
    b.click(".card[data-setup=\"SMSM\"]");
    b.wait_until(
        "document.getElementById('setup-title')?.textContent.startsWith('초')",
        "Cho's cards",
    );
    assert_eq!(count(&mut b, "#board .piece.han"), 16);
    assert_eq!(count(&mut b, "#board .piece.cho"), 12);
    assert_eq!(
        count(&mut b, ".card[data-setup] .setup-pic .piece"),
        4 * 9,
        "chariots, guards, horses, elephants and the general on each card"
    );
    shots.both(&mut b, "setup");
    b.click(".card[data-setup=\"MSSM\"]");
    b.wait_until(
        "state && state.phase === 'playing' && document.getElementById('modal').classList.contains('hidden')",
        "the board",
    );

    // A move by clicks, and the engine's reply: each sounds.
    assert_eq!(sounds(&mut b), Vec::<String>::new());
    b.click_point("b1");
    b.wait_until(
        "document.querySelectorAll('#board .dot').length === 2",
        "the horse's dots",
    );
    // The selected piece is zoomed: bigger than the other horse.
    let zoom = b.eval("(() => { const a = document.querySelector('#board .piece.selected').getBoundingClientRect(); const o = document.querySelector('#board .piece[data-sq=\"h1\"]').getBoundingClientRect(); return a.width / o.width; })()");
    assert!(zoom.as_f64().unwrap() > 1.2, "zoom {zoom}");
    b.click_point("c3");
    b.wait_until("state.ply >= 2 && state.humanToMove", "the engine's reply");
    b.wait_until("Sound.log.length >= 2", "two move sounds");
    assert_eq!(sounds(&mut b), ["move", "move"]);

    // At 360 px the Hangul labels are at least 10 px high on the screen,
    // and the general is drawn larger than a chariot, a chariot larger
    // than a soldier.
    b.viewport(360, 740, true);
    std::thread::sleep(Duration::from_millis(400));
    let smallest = b.eval("Math.min(...[...document.querySelectorAll('#board text.hangul')].map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a))");
    assert!(
        smallest.as_f64().unwrap() >= 10.0,
        "smallest label {smallest} px"
    );
    let width = |b: &mut Browser, sq: &str| {
        b.eval(&format!("document.querySelector('#board .piece[data-sq=\"{sq}\"] polygon').getBoundingClientRect().width")).as_f64().unwrap()
    };
    let (general, chariot, soldier) = (
        width(&mut b, "e2"),
        width(&mut b, "a1"),
        width(&mut b, "e4"),
    );
    assert!(
        general > chariot && chariot > soldier,
        "{general} {chariot} {soldier}"
    );
    b.viewport(1280, 800, false);
    shots.both(&mut b, "mid-game");

    // The pass asks first and says that a pass back ends the game on
    // points, Han winning by the deom.
    b.click("#btn-pass");
    let warning = b.wait_until(
        "document.getElementById('pass-warning')?.textContent",
        "the pass warning",
    );
    assert!(
        warning
            .as_str()
            .unwrap()
            .starts_with("상대도 쉬면 대국이 끝나요: 한 판정승 73.5 : 72"),
        "{warning}"
    );
    shots.both(&mut b, "pass-warning");
    b.click("#confirm-no");

    // The sound switch: off, a move plays nothing; the browser remembers
    // it over a reload; on again.
    b.click("#opt-sound");
    assert_eq!(
        b.eval("localStorage.getItem('janggi.sound.muted')"),
        json!("1")
    );
    let before = sounds(&mut b).len();
    let ply = b.eval("state.ply").as_u64().unwrap();
    play(&mut b, "a4", "a5");
    b.wait_until(
        &format!("state.ply >= {} && state.humanToMove", ply + 2),
        "a move and its reply",
    );
    assert_eq!(sounds(&mut b).len(), before, "muted: nothing played");
    b.call("Page.reload", json!({}), true);
    b.wait_until(
        "typeof state !== 'undefined' && state !== null && state.phase === 'playing'",
        "the page again",
    );
    assert_eq!(
        b.eval("[document.getElementById('opt-sound').checked, Sound.muted]"),
        json!([false, true])
    );
    b.click("#opt-sound");
    assert_eq!(b.eval("Sound.muted"), json!(false));
    // The spoken call is offered only where there is a Korean voice.
    assert_eq!(
        b.eval("document.getElementById('opt-voice').disabled === !Sound.hasKoreanVoice()"),
        json!(true)
    );

    // The rules view: every piece on its own small board, animated, the
    // 멱 and 포다리 examples, bikjang and the count, Korean and English.
    b.click("#btn-rules");
    b.wait_until(
        "document.getElementById('rules-title') !== null",
        "the rules view",
    );
    assert_eq!(count(&mut b, ".rules-item"), 8);
    assert_eq!(count(&mut b, ".rules-board"), 7);
    assert_eq!(
        count(&mut b, ".rules-board[data-example=horse] .blocked"),
        2
    );
    assert_eq!(count(&mut b, ".rules-board[data-example=horse] .leg"), 1);
    assert_eq!(
        count(&mut b, ".rules-board[data-example=cannon] .screen"),
        2
    );
    assert_eq!(
        count(&mut b, ".rules-board[data-example=bikjang] .facing"),
        1
    );
    let text = b.eval("document.getElementById('dialog').textContent");
    for word in ["멱", "포다리", "빅장", "Bikjang", "덤", "Counting", "Horse"] {
        assert!(text.as_str().unwrap().contains(word), "{word}");
    }
    let first = b.wait_until(
        "document.querySelector('.rules-board[data-example=horse] [data-mover]').dataset.at",
        "the horse moving",
    );
    b.wait_until(
        &format!("(() => {{ const at = document.querySelector('.rules-board[data-example=horse] [data-mover]').dataset.at; return at && at !== {first}; }})()"),
        "the horse's next destination",
    );
    shots.both(&mut b, "rules");
    b.click("#btn-rules-close");

    // Check, 멍군 and bikjang between two humans (a loaded record).
    b.eval(&format!(
        "(async () => {{ await fetch('/api/records/parse', {{method: 'POST', body: {}}}); const r = await api('/api/records/open', {{index: 0}}); closeModal(); viewPly = null; viewed = null; return r.ok; }})()",
        serde_json::to_string(CHECK_RECORD).unwrap()
    ));
    b.wait_until(
        "state.settings.mode === 'hvh' && state.ply === 0 && state.phase === 'playing'",
        "the loaded position",
    );
    let heard = sounds(&mut b).len();
    play(&mut b, "a1", "a9");
    b.wait_until("state.ply === 1", "the check");
    // Han answers at once: the 멍군 bubble waits for the 장군 bubble.
    b.eval("api('/api/move', {from: 'e9', to: 'e10'}).then(() => true)");
    b.wait_until("state.ply === 2", "the answer");
    assert_eq!(
        b.eval("document.getElementById('banner').textContent"),
        json!("장군!"),
        "{}",
        b.eval("JSON.stringify([bubbleLog, bubbles])")
    );
    b.wait_until(
        "bubbleLog.join(' ') === '장군! 멍군!'",
        "both bubbles, in order",
    );
    let heard_now: Vec<String> = sounds(&mut b)[heard..].to_vec();
    assert_eq!(heard_now, ["move", "check", "move", "checkAnswered"]);
    assert_eq!(count(&mut b, "#movelist .tag.check"), 1);
    assert_eq!(count(&mut b, "#movelist .tag.checkAnswered"), 1);
    // The check marker lasts while the check stands: shown again by
    // taking the answer back (asked, allowed by the other player).
    assert_eq!(
        b.eval("document.getElementById('mark-check').classList.contains('hidden')"),
        json!(true)
    );
    b.click("#btn-undo");
    b.wait_until(
        "document.getElementById('consent-title')?.textContent.includes('무르기')",
        "the undo question",
    );
    assert_eq!(
        b.eval("state.ply"),
        json!(2),
        "nothing undone before the answer"
    );
    b.click("#consent-yes");
    b.wait_until("state.ply === 1 && state.inCheck", "the undo allowed");
    std::thread::sleep(Duration::from_millis(1800));
    assert_eq!(
        b.eval("document.getElementById('mark-check').classList.contains('hidden')"),
        json!(false)
    );
    assert_eq!(count(&mut b, "#board .check-mark"), 1);
    shots.both(&mut b, "check");
    play(&mut b, "e9", "e10");
    b.wait_until("state.ply === 2 && !state.inCheck", "the answer again");
    play(&mut b, "e4", "d4");
    b.wait_until("state.ply === 3 && state.pendingBikjang", "the bikjang");
    b.wait_until(
        "Sound.log.some(s => s.name === 'bikjang')",
        "the bikjang sound",
    );
    let mark = b.eval("document.getElementById('mark-bikjang').textContent");
    assert!(
        mark.as_str()
            .unwrap()
            .contains("빅장을 풀지 않으면 대국이 끝나요: 초 판정승 18 : 17.5"),
        "{mark}"
    );
    assert_eq!(count(&mut b, "#board .bikjang-line"), 1);
    assert_eq!(count(&mut b, "#movelist .tag.bikjang"), 1);
    std::thread::sleep(Duration::from_millis(1700));
    shots.both(&mut b, "bikjang");

    // A draw offer waits for the other player, who declines it.
    b.click("#btn-draw");
    b.wait_until(
        "document.getElementById('consent-title')?.textContent.includes('무승부')",
        "the draw question",
    );
    b.click("#consent-no");
    b.wait_until("state.pending === null", "the offer declined");
    assert_eq!(b.eval("state.phase"), json!("playing"));

    // Han passes without breaking the bikjang: warned that the game ends
    // at once, then the result.
    b.click("#btn-pass");
    let warning = b.wait_until(
        "document.querySelector('#pass-warning.at-once')?.textContent",
        "the pass warning",
    );
    assert!(
        warning
            .as_str()
            .unwrap()
            .starts_with("지금 쉬면 대국이 바로 끝나요: 초 판정승 18 : 17.5"),
        "{warning}"
    );
    b.click("#confirm-yes");
    let summary = b.wait_until(
        "document.getElementById('result')?.textContent",
        "the result",
    );
    assert_eq!(summary, json!("초 판정승 18 : 17.5 (빅장)"));
    b.wait_until(
        "Sound.log.some(s => s.name === 'gameEnd')",
        "the game-end sound",
    );
    shots.both(&mut b, "result");
    // The byoyomi countdown: a clock in its last seconds ticks, higher
    // in the last three.
    b.eval("(async () => { await api('/api/new', {mode: 'hvh', timeControl: {kind: 'byoyomi', mainSec: 0, periodSec: 5, periods: 3}}); await api('/api/setup', {side: 'han', setup: 'MSSM'}); await api('/api/setup', {side: 'cho', setup: 'MSSM'}); return true; })()");
    b.wait_until(
        "Sound.log.some(s => s.name === 'tick') && Sound.log.some(s => s.name === 'lastTick')",
        "the countdown's ticks",
    );
    // No script error on the way (index.html collects them).
    assert_eq!(b.eval("window.pageErrors || null"), Value::Null);
}
