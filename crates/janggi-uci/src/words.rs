//! The words of one line, with the rest of the line at hand (for the
//! fields that run to the end of it: `info string`, option values).

use crate::error::ParseError;
use std::str::FromStr;

/// The words of a line, left to right.
#[derive(Clone, Debug)]
pub(crate) struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    pub(crate) fn new(line: &'a str) -> Words<'a> {
        Words {
            rest: line.trim_start(),
        }
    }

    /// The next word without taking it.
    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.rest.split_whitespace().next()
    }

    /// Everything not read yet, trimmed; the words are used up.
    pub(crate) fn rest(&mut self) -> &'a str {
        let r = self.rest.trim();
        self.rest = "";
        r
    }

    /// The words up to (not including) the first one `stop` accepts,
    /// as they stand in the line (inner spacing kept), trimmed.
    pub(crate) fn until(&mut self, stop: impl Fn(&str) -> bool) -> &'a str {
        let start = self.rest;
        let mut end = 0;
        let mut probe = Words { rest: start };
        while let Some(w) = probe.peek() {
            if stop(w) {
                break;
            }
            probe.next();
            end = start.len() - probe.rest.len();
        }
        self.rest = &start[end..];
        self.rest = self.rest.trim_start();
        start[..end].trim()
    }

    /// The value after keyword `field`.
    pub(crate) fn value(&mut self, field: &'static str) -> Result<&'a str, ParseError> {
        self.next().ok_or(ParseError::MissingValue(field))
    }

    /// The number after keyword `field`.
    pub(crate) fn number<T: FromStr>(&mut self, field: &'static str) -> Result<T, ParseError> {
        let text = self.value(field)?;
        text.parse().map_err(|_| ParseError::BadNumber {
            field,
            text: text.to_string(),
        })
    }

    /// Checks the line starts with `keyword`.
    pub(crate) fn expect(&mut self, keyword: &'static str) -> Result<(), ParseError> {
        match self.next() {
            Some(w) if w == keyword => Ok(()),
            _ => Err(ParseError::NotThisCommand { expected: keyword }),
        }
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let s = self.rest.trim_start();
        if s.is_empty() {
            self.rest = s;
            return None;
        }
        let end = s.find(char::is_whitespace).unwrap_or(s.len());
        self.rest = s[end..].trim_start();
        Some(&s[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_until_and_rest() {
        let mut w = Words::new("  name Move  Overhead type spin default 10 ");
        assert_eq!(w.next(), Some("name"));
        assert_eq!(w.until(|x| x == "type"), "Move  Overhead");
        assert_eq!(w.peek(), Some("type"));
        assert_eq!(w.next(), Some("type"));
        assert_eq!(w.value("t"), Ok("spin"));
        assert_eq!(w.rest(), "default 10");
        assert_eq!(w.next(), None);
        assert_eq!(w.value("x"), Err(ParseError::MissingValue("x")));
        let mut w = Words::new("depth x");
        w.next();
        assert_eq!(
            w.number::<u32>("depth"),
            Err(ParseError::BadNumber {
                field: "depth",
                text: "x".into()
            })
        );
        assert_eq!(Words::new("").until(|_| true), "");
    }
}
