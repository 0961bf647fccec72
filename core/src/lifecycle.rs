//! State machines as data: each allowed move is one row (from, trigger, to). Anything not in a table is
//! refused with `invalid_state`.

use crate::accounts::AccountStatus;
use crate::error::ApiError;

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
