//! Search scores: the ply limit, mates and rule wins on one scale (a leaf
//! that the search files import).

/// Deepest ply the search reaches (including quiescence).
pub const MAX_PLY: usize = 128;
/// Score of giving mate right now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond ±`MATE_BOUND` are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Score of a game won by a rule (counting, the opponent's repetition
/// loss) right now; won `n` plies from now scores `RULE_WIN - n`.
pub const RULE_WIN: i32 = 30_000;
/// Scores at or beyond ±`WIN_BOUND` are decided games (rule wins or mates).
pub const WIN_BOUND: i32 = RULE_WIN - MAX_PLY as i32;
/// Larger than any score.
pub const INF: i32 = MATE + 1;
