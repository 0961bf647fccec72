//! State machines as data: each allowed move is one row (from, trigger, to). Anything not in a table is
//! refused with `invalid_state`. The states live here, below the accounts and cards that hold them
//! (which re-export them), so the tables need nothing from either.

use crate::error::ApiError;
use crate::macros::str_enum;

str_enum!(AccountStatus { Active = "active", Inactive = "inactive", Suspended = "suspended", Closed = "closed" });
str_enum!(CardStatus { Active = "active", Inactive = "inactive", Canceled = "canceled" });

/// What asks a card to change state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardTrigger {
    /// PUT with status inactive.
    Pause,
    /// PUT with status active.
    Resume,
    /// PUT with status canceled (needs a cancellation reason).
    Cancel,
    /// DELETE.
    Terminate,
}

/// A canceled card never moves again (README "Cards").
const CARD_MOVES: &[(CardStatus, CardTrigger, CardStatus)] = {
    use CardStatus::*;
    use CardTrigger::*;
    &[
        (Active, Pause, Inactive),
        (Inactive, Resume, Active),
        (Active, Cancel, Canceled),
        (Inactive, Cancel, Canceled),
        (Active, Terminate, Canceled),
        (Inactive, Terminate, Canceled),
    ]
};

/// The state `trigger` takes a card in `from` to, or `invalid_state`.
pub fn card_move(from: CardStatus, trigger: CardTrigger) -> Result<CardStatus, ApiError> {
    CARD_MOVES
        .iter()
        .find(|(f, t, _)| *f == from && *t == trigger)
        .map(|(_, _, to)| *to)
        .ok_or_else(|| {
            if from == CardStatus::Canceled {
                ApiError::InvalidState("Card is canceled and cannot be changed".into())
            } else {
                ApiError::InvalidState(format!("Card is already {}", from.as_str()))
            }
        })
}

/// Account status moves by PUT. Staying in the same state is not a move and always allowed,
/// except on a closed account, which takes no change at all.
const ACCOUNT_MOVES: &[(AccountStatus, AccountStatus)] = {
    use AccountStatus::*;
    &[
        (Active, Inactive),
        (Active, Suspended),
        (Active, Closed),
        (Inactive, Active),
        (Inactive, Suspended),
        (Inactive, Closed),
        (Suspended, Active),
        (Suspended, Inactive),
        (Suspended, Closed),
    ]
};

pub fn account_move(from: AccountStatus, to: AccountStatus) -> Result<(), ApiError> {
    if from == AccountStatus::Closed {
        return Err(ApiError::InvalidState("Account is closed".into()));
    }
    if from == to || ACCOUNT_MOVES.contains(&(from, to)) {
        Ok(())
    } else {
        Err(ApiError::InvalidState(format!(
            "Account cannot move from {} to {}",
            from.as_str(),
            to.as_str()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AccountStatus::*;

    #[test]
    fn cards_follow_the_interface_table() {
        use CardTrigger::*;
        assert_eq!(
            card_move(CardStatus::Active, Pause),
            Ok(CardStatus::Inactive)
        );
        assert_eq!(
            card_move(CardStatus::Inactive, Resume),
            Ok(CardStatus::Active)
        );
        for from in [CardStatus::Active, CardStatus::Inactive] {
            assert_eq!(card_move(from, Cancel), Ok(CardStatus::Canceled));
            assert_eq!(card_move(from, Terminate), Ok(CardStatus::Canceled));
        }
        for t in [Pause, Resume, Cancel, Terminate] {
            assert!(card_move(CardStatus::Canceled, t).is_err());
        }
        assert!(card_move(CardStatus::Active, Resume).is_err());
    }

    #[test]
    fn closed_is_terminal_and_everything_else_moves_freely() {
        for from in [Active, Inactive, Suspended] {
            for to in [Active, Inactive, Suspended, Closed] {
                assert!(account_move(from, to).is_ok(), "{from:?} -> {to:?}");
            }
        }
        for to in [Active, Inactive, Suspended, Closed] {
            assert!(account_move(Closed, to).is_err());
        }
    }
}
