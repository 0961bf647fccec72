//! Real-time authorization decisions: a client's decision endpoint is asked about every purchase
//! the issuer's own checks approve (README, "Real-time authorization decisions"), and its answer,
//! or the endpoint's fallback when there is none, decides. The answer is applied here, in the write
//! transaction, after the issuer's checks ran again on the card as it is now.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::DeclineReason;
use crate::callout::{Asked, Reply};
use crate::macros::str_enum;
use crate::storage::codec::JsonText;

str_enum!(DecisionSource {
    Issuer = "issuer",
    Endpoint = "endpoint",
    Fallback = "fallback",
});
str_enum!(
    /// Why the fallback decided (null when the endpoint or the issuer did).
    DecisionReason {
        Timeout = "timeout",
        Error = "error",
        InvalidResponse = "invalid_response",
    }
);
str_enum!(Fallback {
    Approve = "approve",
    Decline = "decline",
});

/// Who decided an authorization and how, kept on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub source: DecisionSource,
    pub reason: Option<DecisionReason>,
    /// How long the endpoint took (0 when it was not asked).
    pub latency_ms: u64,
    /// What the endpoint attached to its answer.
    pub metadata: Option<JsonText>,
}

impl Decision {
    pub fn issuer() -> Decision {
        Decision {
            source: DecisionSource::Issuer,
            reason: None,
            latency_ms: 0,
            metadata: None,
        }
    }
}

/// A well-formed `200 {approved, amount?, metadata?}`, read by the http layer from the answer's body.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub approved: bool,
    pub amount: Option<Decimal>,
    pub metadata: Option<JsonText>,
}

/// What came of asking, as the rules see it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Answered(Answer),
    /// A 200 whose body is not a valid answer.
    Invalid,
    /// Another status, or no answer at all (refused address, connection, TLS).
    Failed,
    Timeout,
}

impl Outcome {
    /// The outcome of `asked`, given how the http layer read a 200's body (`None`: not an answer).
    pub fn of(asked: &Asked, read: impl FnOnce(&[u8]) -> Option<Answer>) -> Outcome {
        match &asked.reply {
            Reply::Answer { status: 200, body } => {
                read(body).map_or(Outcome::Invalid, Outcome::Answered)
            }
            Reply::Answer { .. } | Reply::Error(_) => Outcome::Failed,
            Reply::Timeout => Outcome::Timeout,
        }
    }
}

/// The endpoint's part in one purchase the issuer approved for `issued` (the whole `requested`
/// amount, or less after the issuer's own partial approval).
#[derive(Debug, Clone)]
pub struct Asking {
    pub fallback: Fallback,
    /// None: the endpoint was set but the request reached the write without asking it (the host did
    /// not, or the endpoint was set after the snapshot it asked on): the fallback decides, as for an
    /// error.
    pub outcome: Option<Outcome>,
    pub latency_ms: u64,
}

/// The final verdict: the approved amount or the decline reason, and the decision to keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub approved: Result<Decimal, DeclineReason>,
    pub decision: Decision,
}

/// Applies the endpoint's answer to a purchase of `requested` that the issuer approved for `issued`
/// in this transaction. An `amount` above `requested`, at or below zero, or below it without
/// `partial_capable` is an invalid answer. The approved amount never passes `issued`: the endpoint
/// was shown the card as it stood before, and the issuer's checks of now win.
pub fn judge(
    asking: &Asking,
    requested: Decimal,
    issued: Decimal,
    partial_capable: bool,
) -> Judged {
    let decided = |source, reason, metadata| Decision {
        source,
        reason,
        latency_ms: asking.latency_ms,
        metadata,
    };
    let answer = match &asking.outcome {
        Some(Outcome::Answered(a)) if valid(a, requested, partial_capable) => a,
        other => {
            let reason = match other {
                Some(Outcome::Timeout) => DecisionReason::Timeout,
                Some(Outcome::Answered(_) | Outcome::Invalid) => DecisionReason::InvalidResponse,
                Some(Outcome::Failed) | None => DecisionReason::Error,
            };
            let approved = match asking.fallback {
                Fallback::Approve => Ok(issued),
                Fallback::Decline if reason == DecisionReason::Timeout => {
                    Err(DeclineReason::WebhookTimeout)
                }
                Fallback::Decline => Err(DeclineReason::WebhookError),
            };
            return Judged {
                approved,
                decision: decided(DecisionSource::Fallback, Some(reason), None),
            };
        }
    };
    let approved = if answer.approved {
        Ok(answer.amount.map_or(issued, |a| a.min(issued)))
    } else {
        Err(DeclineReason::WebhookDeclined)
    };
    Judged {
        approved,
        decision: decided(DecisionSource::Endpoint, None, answer.metadata.clone()),
    }
}

fn valid(answer: &Answer, requested: Decimal, partial_capable: bool) -> bool {
    match answer.amount {
        None => true,
        Some(a) => a > Decimal::ZERO && a <= requested && (partial_capable || a == requested),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(fallback: Fallback, outcome: Option<Outcome>) -> Asking {
        Asking {
            fallback,
            outcome,
            latency_ms: 12,
        }
    }

    fn answer(approved: bool, amount: Option<i64>) -> Option<Outcome> {
        Some(Outcome::Answered(Answer {
            approved,
            amount: amount.map(Decimal::from),
            metadata: None,
        }))
    }

    fn d(n: i64) -> Decimal {
        Decimal::from(n)
    }

    #[test]
    fn the_endpoint_approves_declines_and_approves_part() {
        let a = Fallback::Decline;
        let j = judge(&asking(a, answer(true, None)), d(50), d(50), false);
        assert_eq!(j.approved, Ok(d(50)));
        assert_eq!(j.decision.source, DecisionSource::Endpoint);
        assert_eq!(j.decision.latency_ms, 12);
        let j = judge(&asking(a, answer(false, None)), d(50), d(50), false);
        assert_eq!(j.approved, Err(DeclineReason::WebhookDeclined));
        assert_eq!(j.decision.reason, None);
        let j = judge(&asking(a, answer(true, Some(20))), d(50), d(50), true);
        assert_eq!(j.approved, Ok(d(20)));
        // The issuer's room of now caps what the endpoint approved.
        let j = judge(&asking(a, answer(true, Some(40))), d(50), d(30), true);
        assert_eq!(j.approved, Ok(d(30)));
    }

    #[test]
    fn a_bad_amount_is_an_invalid_answer_and_the_fallback_decides() {
        for (amount, partial) in [(20, false), (60, true), (0, true), (-5, true)] {
            let j = judge(
                &asking(Fallback::Decline, answer(true, Some(amount))),
                d(50),
                d(50),
                partial,
            );
            assert_eq!(j.approved, Err(DeclineReason::WebhookError), "{amount}");
            assert_eq!(j.decision.source, DecisionSource::Fallback);
            assert_eq!(j.decision.reason, Some(DecisionReason::InvalidResponse));
        }
    }

    #[test]
    fn fallbacks_name_their_reason() {
        let cases = [
            (
                Some(Outcome::Timeout),
                DecisionReason::Timeout,
                DeclineReason::WebhookTimeout,
            ),
            (
                Some(Outcome::Failed),
                DecisionReason::Error,
                DeclineReason::WebhookError,
            ),
            (
                Some(Outcome::Invalid),
                DecisionReason::InvalidResponse,
                DeclineReason::WebhookError,
            ),
            (None, DecisionReason::Error, DeclineReason::WebhookError),
        ];
        for (outcome, reason, decline) in cases {
            let j = judge(
                &asking(Fallback::Decline, outcome.clone()),
                d(9),
                d(9),
                false,
            );
            assert_eq!(j.approved, Err(decline));
            assert_eq!(j.decision.reason, Some(reason));
            let j = judge(&asking(Fallback::Approve, outcome), d(9), d(7), true);
            assert_eq!(j.approved, Ok(d(7)));
            assert_eq!(j.decision.source, DecisionSource::Fallback);
            assert_eq!(j.decision.reason, Some(reason));
        }
    }

    #[test]
    fn replies_become_outcomes() {
        let asked = |reply| Asked {
            context: String::new(),
            latency_ms: 1,
            reply,
        };
        let ok = |_: &[u8]| {
            Some(Answer {
                approved: true,
                amount: None,
                metadata: None,
            })
        };
        let none = |_: &[u8]| None;
        let answered = |status| Reply::Answer {
            status,
            body: b"{}".to_vec(),
        };
        assert!(matches!(
            Outcome::of(&asked(answered(200)), ok),
            Outcome::Answered(_)
        ));
        assert_eq!(Outcome::of(&asked(answered(200)), none), Outcome::Invalid);
        assert_eq!(Outcome::of(&asked(answered(204)), ok), Outcome::Failed);
        assert_eq!(Outcome::of(&asked(answered(500)), ok), Outcome::Failed);
        assert_eq!(Outcome::of(&asked(Reply::Timeout), ok), Outcome::Timeout);
        assert_eq!(
            Outcome::of(&asked(Reply::Error("refused".into())), ok),
            Outcome::Failed
        );
    }
}
