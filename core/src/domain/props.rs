//! The money rules with no HTTP at all: random command sequences against `MemStore`, checking after
//! every step that money is neither made nor lost.

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::accounts::{
    self, AccountStatus, AccountType, AccountUpdate, Category, NewAccount, OwnerType,
};
use super::authorizations::transactions::{CardTransaction, TransactionType};
use super::authorizations::{
    self, Authorization, AuthorizationStatus, Channel, DeclineReason, Merchant, NewAuthorization,
    spend,
};
use super::card_holders::{self, HolderMeta, Identification, NewCardHolder, Person};
use super::cards::{
    self, Brand, CancellationReason, CardStatus, CardType, CardUpdate, Funding, NewCard,
};
use super::cards::{ControlsPatch, Interval, SpendingLimit};
use super::disputes::{self, DisputeReason, DisputeStatus, NewDispute, Outcome};
use super::ledger::{self, EntryType};
use super::transfers::{self, NewTransfer};
use super::vault::Vault;
use super::{Currency, IdGen, Scope};
use crate::env::{DeterministicEnv, Timestamp};
use crate::storage::codec::{self, JsonText};
use crate::storage::keys::{self, Kind};
use crate::storage::ordered::Ordered;
use crate::storage::{MemStore, Overlay};

#[derive(Debug, Clone)]
enum Op {
    Issue {
        account: usize,
        cents: Option<u32>,
    },
    Fund {
        card: usize,
        account: usize,
        cents: u32,
    },
    Cancel {
        card: usize,
        to_other: bool,
    },
    Terminate {
        card: usize,
    },
    Adjust {
        account: usize,
        cents: u32,
    },
    Pause {
        card: usize,
    },
    Block {
        account: usize,
    },
    Authorize {
        card: usize,
        cents: u32,
        web: bool,
        /// Indexes into [`CATEGORIES`] and [`MCCS`]; past the end is none.
        category: usize,
        mcc: usize,
        /// `partialApprovalCapable`.
        partial: bool,
    },
    /// Raises a pending authorization's hold.
    Increment {
        auth: usize,
        cents: u32,
    },
    /// The client's test clock moves forward this many minutes (up to three days).
    Advance {
        minutes: u32,
    },
    Capture {
        auth: usize,
        cents: Option<u32>,
    },
    Reverse {
        auth: usize,
        cents: Option<u32>,
    },
    Refund {
        auth: usize,
        cents: Option<u32>,
    },
    /// The clock moves past the authorization lifetime.
    Expire,
    /// A PUT that replaces the card's limits: (amount, interval, categories as bits of [`LISTED`]).
    Limit {
        card: usize,
        limits: Vec<(u32, usize, u8)>,
    },
    /// Between two of the accounts (the same one too, which is refused).
    Transfer {
        from: usize,
        to: usize,
        cents: u32,
    },
    /// A card funded with a purchase's amount, the purchase, and its capture (so disputes have
    /// captures to contest).
    Buy {
        card: usize,
        cents: u32,
    },
    /// A dispute of one of the captures made so far (by index, modulo their number).
    Dispute {
        capture: usize,
        cents: Option<u32>,
        /// The network's answer right after (won or lost), as its own request.
        answer: Option<bool>,
    },
    /// One of the disputes opened so far (by index, modulo their number).
    Resolve {
        dispute: usize,
        won: bool,
    },
}

/// What purchases carry, and what limits list: categories and MCCs, some of a pair that belongs
/// together (airlines, 4511), so a limit can list both of one purchase.
const CATEGORIES: [&str; 3] = ["electronics", "airlines", "grocery_stores"];
const MCCS: [&str; 3] = ["5732", "4511", "5411"];
const LISTED: [&str; 4] = ["electronics", "airlines", "4511", "5411"];

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (0usize..3, proptest::option::of(100u32..8000))
            .prop_map(|(account, cents)| Op::Issue { account, cents }),
        1 => (0usize..8, 0usize..3, 1u32..5000).prop_map(|(card, account, cents)| Op::Fund {
            card,
            account,
            cents
        }),
        1 => (0usize..8, any::<bool>()).prop_map(|(card, to_other)| Op::Cancel { card, to_other }),
        1 => (0usize..8).prop_map(|card| Op::Terminate { card }),
        1 => (0usize..3, 0u32..20000).prop_map(|(account, cents)| Op::Adjust { account, cents }),
        1 => (0usize..8).prop_map(|card| Op::Pause { card }),
        1 => (0usize..3).prop_map(|account| Op::Block { account }),
        6 => (0usize..4, 1u32..1500, any::<bool>(), 0usize..4, 0usize..4, any::<bool>())
            .prop_map(|(card, cents, web, category, mcc, partial)| Op::Authorize { card, cents, web, category, mcc, partial }),
        2 => (0usize..8, 1u32..1500).prop_map(|(auth, cents)| Op::Increment { auth, cents }),
        1 => (1u32..4320).prop_map(|minutes| Op::Advance { minutes }),
        3 => (0usize..8, proptest::option::of(1u32..1500))
            .prop_map(|(auth, cents)| Op::Capture { auth, cents }),
        2 => (0usize..8, proptest::option::of(1u32..1500))
            .prop_map(|(auth, cents)| Op::Reverse { auth, cents }),
        2 => (0usize..8, proptest::option::of(1u32..1500))
            .prop_map(|(auth, cents)| Op::Refund { auth, cents }),
        1 => Just(Op::Expire),
        2 => (0usize..4, proptest::collection::vec((500u32..6000, 0usize..6, 0u8..16), 0..4))
            .prop_map(|(card, limits)| Op::Limit { card, limits }),
        2 => (0usize..3, 0usize..3, 1u32..8000)
            .prop_map(|(from, to, cents)| Op::Transfer { from, to, cents }),
        5 => (0usize..4, 1u32..400).prop_map(|(card, cents)| Op::Buy { card, cents }),
        6 => (0usize..8, proptest::option::of(1u32..1500), proptest::option::of(any::<bool>()))
            .prop_map(|(capture, cents, answer)| Op::Dispute { capture, cents, answer }),
        3 => (0usize..4, any::<bool>()).prop_map(|(dispute, won)| Op::Resolve { dispute, won }),
    ]
}

/// The authorization lifetime of these runs: an hour, so `Expire` moves the clock across days.
const TTL: i64 = 3600;

fn cents(c: u32) -> Decimal {
    Decimal::new(c.into(), 2)
}

struct World {
    store: MemStore,
    env: DeterministicEnv,
    ids: IdGen,
    vault: Vault,
}

impl World {
    /// The client's clock, as the pipeline reads it: the host's plus the test-clock offset.
    fn now(&mut self) -> Timestamp {
        super::test_clock::now(&mut self.store, "alice", &self.env).unwrap()
    }

    /// Runs `f` in one request-like unit: its writes land only if it returns `Ok`.
    fn run<T>(
        &mut self,
        f: impl FnOnce(&mut Scope, &Vault) -> super::Result<T>,
    ) -> super::Result<T> {
        let now = self.now();
        let mut overlay = Overlay::new(&mut self.store);
        let result = {
            let mut s = Scope {
                tx: &mut overlay,
                client: "alice",
                now,
                ids: &self.ids,
                env: &self.env,
            };
            f(&mut s, &self.vault)
        };
        if result.is_ok() {
            overlay.commit().expect("MemStore does not fail");
        }
        self.env.advance_millis(1000);
        result
    }
}

impl World {
    /// One authorization as it stands now (the clock does not move).
    fn authorization(&mut self, id: &str) -> Authorization {
        let now = self.now();
        let mut s = Scope {
            tx: &mut self.store,
            client: "alice",
            now,
            ids: &self.ids,
            env: &self.env,
        };
        authorizations::get(&mut s, id).unwrap()
    }

    /// A card's limits, its authorizations and its available balance as they stand now.
    fn card_state(&mut self, card: &str) -> (Vec<SpendingLimit>, Vec<Authorization>, Decimal) {
        let now = self.now();
        let mut s = Scope {
            tx: &mut self.store,
            client: "alice",
            now,
            ids: &self.ids,
            env: &self.env,
        };
        let card = cards::get(&mut s, card).unwrap();
        let auths = authorizations::all(&mut s).unwrap();
        let available = card.available();
        (
            card.spending_controls.spending_limits,
            auths.into_iter().filter(|a| a.card_id == card.id).collect(),
            available,
        )
    }
}

/// The model of the contract's rule, written apart from `spend`: a limit applies to a purchase when
/// its categories are empty or hold the merchant's category or MCC.
fn model_applies(limit: &SpendingLimit, m: &Merchant) -> bool {
    limit.categories.is_empty()
        || limit
            .categories
            .iter()
            .any(|c| m.category.as_ref() == Some(c) || m.mcc.as_ref() == Some(c))
}

/// The model of a limit's spent at `now`: pending + captured of the card's approved authorizations
/// created in the limit's period that it applies to, each counted once, by brute force.
fn model_spent<A: std::borrow::Borrow<Authorization>>(
    limit: &SpendingLimit,
    auths: &[A],
    now: Timestamp,
) -> Decimal {
    let start = spend::period_start(limit.interval, now);
    auths
        .iter()
        .map(|a| a.borrow())
        .filter(|a| a.approved && model_applies(limit, &a.merchant))
        .filter(|a| start.is_none_or(|p| a.created_at >= p))
        .map(|a| a.pending_amount + a.captured_amount)
        .sum()
}

/// Every card transaction of the scope's client.
fn transactions_of(s: &mut Scope) -> super::Result<Vec<CardTransaction>> {
    Ok(codec::scan(
        s.tx,
        &keys::records(s.client, Kind::CardTransaction),
    )?)
}

fn disputes_of(s: &mut Scope) -> Vec<disputes::Dispute> {
    codec::scan(s.tx, &keys::records(s.client, Kind::Dispute)).unwrap()
}

fn new_account(balance: Decimal) -> NewAccount {
    NewAccount {
        owner_type: OwnerType::User,
        owner_id: None,
        name: "Main".into(),
        kind: AccountType::Checking,
        category: Category::Fiat,
        currency: Currency::parse("USD").unwrap(),
        status: AccountStatus::Active,
        network: None,
        balance,
        can_debit: true,
        can_credit: true,
    }
}

fn holder() -> NewCardHolder {
    NewCardHolder {
        name: "Ada Lovelace".into(),
        person: Person {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            date_of_birth: None,
            email: "ada@example.com".into(),
            nationality: None,
            gender: None,
            phone_number: "+2348012345678".into(),
        },
        address: None,
        identification: Identification::default(),
        meta: HolderMeta::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Σ account balances + Σ card ledger balances + Σ captured − Σ refunded − Σ dispute credits = Σ
    /// adjustment entries (transfers move money between accounts and add nothing);
    /// every account balance is the sum of its entries; nothing is negative; a refused command changes
    /// nothing; a card's available balance is its ledger balance less its pending holds; every limit's
    /// spent equals the model's sum over the card's authorizations it applies to (whatever limits a PUT
    /// gave the card since), and a purchase is declined for a limit exactly when the model says so.
    #[test]
    fn money_is_conserved_by_the_domain(ops in proptest::collection::vec(op(), 1..60)) {
        let env = DeterministicEnv::default();
        let mut w = World { store: MemStore::new(), ids: IdGen::new(&env), env, vault: Vault::new(&[9; 32]) };
        let accounts: Vec<String> = (0..3)
            .map(|_| w.run(|s, _| accounts::create(s, new_account(cents(5000)))).unwrap().id)
            .collect();
        let holder = w.run(|s, _| card_holders::create(s, holder(), Vec::new(), u64::MAX)).unwrap().id;
        let mut cards: Vec<String> = Vec::new();
        let mut auths: Vec<String> = Vec::new();
        let mut opened: Vec<String> = Vec::new();
        for op in ops {
            let before = w.store.clone();
            let result = match op.clone() {
                Op::Issue { account, cents: amount } => w
                    .run(|s, v| cards::create(s, v, NewCard {
                        debit_account_id: accounts[account].clone(),
                        card_holder_id: holder.clone(),
                        kind: CardType::Virtual,
                        brand: Brand::Visa,
                        status: CardStatus::Active,
                        currency: Currency::default_card(),
                        metadata: JsonText::default(),
                        spending_controls: Default::default(),
                        enable_2fa: false,
                        amount: amount.map(cents),
                        disposable: false,
                    }))
                    .map(|c| cards.push(c.id)),
                Op::Fund { card, account, cents: amount } if card < cards.len() => w
                    .run(|s, _| cards::fund(s, &cards[card], Funding {
                        debit_account_id: accounts[account].clone(),
                        amount: cents(amount),
                    }))
                    .map(drop),
                Op::Cancel { card, to_other } if card < cards.len() => w
                    .run(|s, _| cards::update(s, &cards[card], CardUpdate {
                        status: Some(CardStatus::Canceled),
                        cancellation_reason: Some(CancellationReason::Stolen),
                        credit_account_id: to_other.then(|| accounts[2].clone()),
                        ..Default::default()
                    }))
                    .map(drop),
                Op::Terminate { card } if card < cards.len() => {
                    w.run(|s, _| cards::terminate(s, &cards[card])).map(drop)
                }
                Op::Pause { card } if card < cards.len() => w
                    .run(|s, _| cards::update(s, &cards[card], CardUpdate {
                        status: Some(CardStatus::Inactive),
                        ..Default::default()
                    }))
                    .map(drop),
                Op::Adjust { account, cents: target } => w
                    .run(|s, _| accounts::update(s, &accounts[account], AccountUpdate {
                        balance: Some(cents(target)),
                        ..Default::default()
                    }))
                    .map(drop),
                Op::Block { account } => w
                    .run(|s, _| accounts::update(s, &accounts[account], AccountUpdate {
                        can_debit: Some(false),
                        ..Default::default()
                    }))
                    .map(drop),
                Op::Authorize { card, cents: amount, web, category, mcc, partial } if card < cards.len() => {
                    let merchant = Merchant {
                        name: "Shop".into(),
                        category: CATEGORIES.get(category).map(|c| c.to_string()),
                        mcc: MCCS.get(mcc).map(|c| c.to_string()),
                        city: None,
                        country: None,
                    };
                    // The model's verdict on the card's limits before the decision.
                    let (limits, of_card, available) = w.card_state(&cards[card]);
                    let now = w.now();
                    let room_of = |l: &SpendingLimit| if l.interval == Interval::PerAuthorization {
                        l.amount
                    } else {
                        (l.amount - model_spent(l, &of_card, now)).max(Decimal::ZERO)
                    };
                    let over_a_limit = limits.iter().any(|l| model_applies(l, &merchant) && cents(amount) > room_of(l));
                    // What a partial approval may take: the smallest room of the limits that apply, and the balance.
                    let room = limits
                        .iter()
                        .filter(|l| model_applies(l, &merchant))
                        .map(room_of)
                        .fold(available.max(Decimal::ZERO), Decimal::min);
                    let decided = w.run(|s, _| authorizations::authorize(s, &cards[card], NewAuthorization {
                        amount: cents(amount),
                        currency: None,
                        channel: if web { Channel::Web } else { Channel::Pos },
                        merchant,
                        partial_approval_capable: partial,
                        simulate_decline: None,
                    }, TTL));
                    if let Ok(a) = &decided {
                        prop_assert_eq!(a.requested_amount, cents(amount));
                        if partial && a.amount < a.requested_amount {
                            // Approved for exactly the room, which was short of the request.
                            prop_assert!(a.approved, "{a:?}");
                            prop_assert_eq!(a.amount, room, "{:?}", a);
                        } else if partial {
                            prop_assert_eq!(a.amount, a.requested_amount);
                            match a.decline_reason {
                                Some(DeclineReason::SpendingLimit | DeclineReason::InsufficientFunds) => {
                                    prop_assert_eq!(room, Decimal::ZERO, "{:?}", a)
                                }
                                None => prop_assert!(!over_a_limit && cents(amount) <= available, "{a:?}"),
                                Some(_) => {}
                            }
                        } else {
                            prop_assert_eq!(a.amount, a.requested_amount);
                            match a.decline_reason {
                                Some(DeclineReason::SpendingLimit) => prop_assert!(over_a_limit, "{a:?}"),
                                None | Some(DeclineReason::InsufficientFunds) => prop_assert!(!over_a_limit, "{a:?}"),
                                Some(_) => {}
                            }
                        }
                    }
                    decided.map(|a| auths.push(a.id))
                }
                Op::Increment { auth, cents: amount } if auth < auths.len() => {
                    let before = w.authorization(&auths[auth]);
                    let (limits, of_card, available) = w.card_state(&before.card_id);
                    let now = w.now();
                    let over_a_limit = limits.iter().any(|l| {
                        model_applies(l, &before.merchant)
                            && if l.interval == Interval::PerAuthorization {
                                cents(amount) > l.amount
                            } else {
                                model_spent(l, &of_card, now) + cents(amount) > l.amount
                            }
                    });
                    let result = w.run(|s, _| authorizations::increment(s, &auths[auth], cents(amount)));
                    match &result {
                        Ok(a) => {
                            prop_assert!(!over_a_limit && cents(amount) <= available, "{a:?}");
                            prop_assert_eq!(a.amount, before.amount + cents(amount));
                            prop_assert_eq!(a.pending_amount, before.pending_amount + cents(amount));
                        }
                        Err(crate::error::ApiError::Declined("spending_limit")) => prop_assert!(over_a_limit),
                        Err(crate::error::ApiError::Declined("insufficient_funds")) => {
                            prop_assert!(!over_a_limit && cents(amount) > available)
                        }
                        Err(_) => {}
                    }
                    result.map(drop)
                }
                Op::Advance { minutes } => {
                    let before = w.now();
                    let moved = w.run(|s, _| super::outbox::advance_clock(s, i64::from(minutes) * 60)).unwrap();
                    prop_assert_eq!(moved.now, before.plus_seconds(i64::from(minutes) * 60));
                    // `run` moves the host's clock a second after every unit.
                    prop_assert_eq!(w.now(), moved.now.plus_seconds(1));
                    Ok(())
                }
                Op::Capture { auth, cents: amount } if auth < auths.len() => w
                    .run(|s, _| authorizations::capture(s, &auths[auth], amount.map(cents)))
                    .map(drop),
                Op::Reverse { auth, cents: amount } if auth < auths.len() => w
                    .run(|s, _| authorizations::reverse(s, &auths[auth], amount.map(cents)))
                    .map(drop),
                Op::Refund { auth, cents: amount } if auth < auths.len() => w
                    .run(|s, _| authorizations::refund(s, &auths[auth], amount.map(cents)))
                    .map(drop),
                Op::Expire => {
                    w.env.advance_millis((TTL + 1) * 1000);
                    Ok(())
                }
                Op::Limit { card, limits } if card < cards.len() => w
                    .run(|s, _| cards::update(s, &cards[card], CardUpdate {
                        spending_controls: Some(ControlsPatch {
                            spending_limits: Some(limits.iter().map(|&(amount, interval, listed)| SpendingLimit {
                                amount: cents(amount),
                                interval: Interval::parse(Interval::ALL[interval]).unwrap(),
                                categories: LISTED
                                    .iter()
                                    .enumerate()
                                    .filter(|(i, _)| listed & (1 << i) != 0)
                                    .map(|(_, c)| c.to_string())
                                    .collect(),
                            }).collect()),
                            ..Default::default()
                        }),
                        ..Default::default()
                    }))
                    .map(drop),
                Op::Transfer { from, to, cents: amount } => w
                    .run(|s, _| transfers::create(s, NewTransfer {
                        debit_account_id: accounts[from].clone(),
                        credit_account_id: accounts[to].clone(),
                        amount: cents(amount),
                        narration: None,
                        reference: None,
                    }))
                    .map(drop),
                Op::Buy { card, cents: amount } if !cards.is_empty() => w
                    .run(|s, _| {
                        // Funded first, from the card's account, so most purchases go through.
                        let card = &cards[card % cards.len()];
                        cards::fund(s, card, Funding {
                            debit_account_id: accounts[0].clone(),
                            amount: cents(amount),
                        })?;
                        let a = authorizations::authorize(s, card, NewAuthorization {
                            amount: cents(amount),
                            currency: None,
                            channel: Channel::Web,
                            merchant: Merchant { name: "Shop".into(), category: None, mcc: None, city: None, country: None },
                            partial_approval_capable: false,
                            simulate_decline: None,
                        }, TTL)?;
                        if a.approved {
                            authorizations::capture(s, &a.id, None)?;
                        }
                        Ok(a)
                    })
                    .map(|a| auths.push(a.id)),
                Op::Dispute { capture, cents: amount, answer } => w
                    .run(|s, _| {
                        let captures: Vec<CardTransaction> = transactions_of(s)?
                            .into_iter()
                            .filter(|t| t.kind == TransactionType::Capture)
                            .collect();
                        let capture = captures
                            .get(capture % captures.len().max(1))
                            .ok_or(crate::error::ApiError::NotFound("Card transaction"))?;
                        disputes::open(s, &capture.id, NewDispute {
                            reason: DisputeReason::Fraudulent,
                            amount: amount.map(cents),
                            explanation: None,
                        })
                    })
                    .map(|d| {
                        if let Some(won) = answer {
                            let outcome = if won { Outcome::Won } else { Outcome::Lost };
                            // A refused answer (a card canceled since) writes nothing; the dispute stays.
                            let _ = w.run(|s, _| disputes::resolve(s, &d.id, outcome));
                        }
                        opened.push(d.id)
                    }),
                Op::Resolve { dispute, won } if !opened.is_empty() => w
                    .run(|s, _| disputes::resolve(s, &opened[dispute % opened.len()], if won { Outcome::Won } else { Outcome::Lost }))
                    .map(drop),
                _ => Ok(()),
            };
            if result.is_err() {
                prop_assert!(w.store.iter().eq(before.iter()), "a refused {op:?} wrote");
            }
            let now = w.now();
            let (all_transfers, all_disputes, card_txs) = {
                let mut s = Scope { tx: &mut w.store, client: "alice", now, ids: &w.ids, env: &w.env };
                (transfers::all(&mut s).unwrap(), disputes_of(&mut s), transactions_of(&mut s).unwrap())
            };
            let (balances, entries, all_cards, all_auths, spending) = {
                let mut s = Scope { tx: &mut w.store, client: "alice", now, ids: &w.ids, env: &w.env };
                let a = accounts::all(&mut s).unwrap();
                let e = ledger::all_entries(&mut s).unwrap();
                let c = cards::all(&mut s).unwrap();
                let z = authorizations::all(&mut s).unwrap();
                let sp: Vec<_> = c.iter().map(|c| authorizations::spending(&mut s, &c.id).unwrap()).collect();
                (a, e, c, z, sp)
            };
            let mut total = Decimal::ZERO;
            for a in &balances {
                prop_assert!(a.balance >= Decimal::ZERO);
                let sum: Decimal = entries.iter().filter(|e| e.account_id == a.id).map(|e| e.amount).sum();
                prop_assert_eq!(sum, a.balance);
                total += a.balance;
            }
            for (c, limits) in all_cards.iter().zip(&spending) {
                let of_card: Vec<&Authorization> = all_auths.iter().filter(|a| a.card_id == c.id).collect();
                // available = ledger - pending holds, the holds judged by the clock alone.
                let pending: Decimal = of_card.iter().map(|a| a.pending_amount).sum();
                prop_assert_eq!(c.available(), c.balance - pending);
                prop_assert!(c.available() >= Decimal::ZERO);
                for a in &of_card {
                    prop_assert_eq!(a.pending_amount + a.captured_amount + a.reversed_amount
                        + if a.status == AuthorizationStatus::Expired { a.amount - a.captured_amount - a.reversed_amount } else { Decimal::ZERO },
                        if a.approved { a.amount } else { Decimal::ZERO });
                    // Refunds and won disputes together never give back more than was captured.
                    let credited: Decimal = card_txs
                        .iter()
                        .filter(|t| t.authorization_id == a.id && t.kind == TransactionType::DisputeCredit)
                        .map(|t| t.amount)
                        .sum();
                    prop_assert!(a.refunded_amount + credited <= a.captured_amount, "{a:?}");
                }
                // Every limit's spent, from the running totals, equals the model's sum over the
                // card's authorizations, for the limits the card has now.
                prop_assert_eq!(limits.len(), c.spending_controls.spending_limits.len());
                for l in limits {
                    if l.limit.interval != Interval::PerAuthorization {
                        prop_assert_eq!(l.spent, model_spent(&l.limit, &of_card, now), "{:?}", l.limit);
                    }
                    prop_assert_eq!(spend::period_start(l.limit.interval, now), l.period_start);
                }
                prop_assert!(c.balance >= Decimal::ZERO);
                if c.status == CardStatus::Canceled {
                    prop_assert_eq!(c.balance, Decimal::ZERO);
                }
                total += c.balance;
            }
            // The range indexes agree with the records: an account's balance; what a card can
            // spend as stored (ledger balance less stored holds), and the cards whose holds lapsed
            // by the clock are exactly those the lapsed queue names.
            {
                let mut s = Scope { tx: &mut w.store, client: "alice", now, ids: &w.ids, env: &w.env };
                let entries = |s: &mut Scope, kind: Kind, index: &str| {
                    let prefix = keys::range_index("alice", kind, index);
                    let mut got: Vec<(Vec<u8>, String)> = crate::storage::scan_prefix(s.tx, &prefix)
                        .unwrap()
                        .iter()
                        .map(|(k, _)| {
                            let (v, id) = keys::range_entry_parts(&prefix, k).unwrap();
                            (v.to_vec(), id.to_string())
                        })
                        .collect();
                    got.sort();
                    got
                };
                let mut want: Vec<(Vec<u8>, String)> = balances
                    .iter()
                    .map(|a| (Ordered::Num(a.balance).encode(), a.id.clone()))
                    .collect();
                want.sort();
                prop_assert_eq!(entries(&mut s, Kind::Account, "balance"), want);
                let mut want = Vec::new();
                let mut lapsed = Vec::new();
                for c in &all_cards {
                    let held = super::card_records::stored_held(&mut s, &c.id).unwrap();
                    want.push((Ordered::Num(c.balance - held).encode(), c.id.clone()));
                    if !authorizations::lapsed_holds(&mut s, &c.id).unwrap().is_empty() {
                        lapsed.push(c.id.clone());
                    }
                }
                want.sort();
                prop_assert_eq!(entries(&mut s, Kind::Card, "available"), want);
                // Its compound part per status holds exactly the cards of that status, with the
                // same values, and its bucket counts add up to them.
                for status in CardStatus::ALL {
                    let part = keys::compound_range(super::card_records::AVAILABLE, "status", status);
                    let mut want = Vec::new();
                    for c in all_cards.iter().filter(|c| c.status.as_str() == *status) {
                        let held = super::card_records::stored_held(&mut s, &c.id).unwrap();
                        want.push((Ordered::Num(c.balance - held).encode(), c.id.clone()));
                    }
                    want.sort();
                    let n = want.len() as u64;
                    prop_assert_eq!(entries(&mut s, Kind::Card, &part), want);
                    let span = crate::storage::ordered::Span::default();
                    let counted = crate::storage::table::range_count(s.tx, "alice", Kind::Card, &part, &span).unwrap();
                    prop_assert_eq!(counted, n);
                }
                // And the bucket counts add up to them.
                let span = crate::storage::ordered::Span::default();
                for (kind, index, n) in [(Kind::Card, "available", all_cards.len()), (Kind::Account, "balance", balances.len())] {
                    let counted = crate::storage::table::range_count(s.tx, "alice", kind, index, &span).unwrap();
                    prop_assert_eq!(counted, n as u64);
                }
                let stale: Vec<String> = super::card_records::lapsed_cards(s.tx, "alice", "available", now.millis())
                    .unwrap()
                    .into_iter()
                    .map(|p| p.id)
                    .collect();
                lapsed.sort();
                prop_assert_eq!(stale, lapsed);
            }
            let captured: Decimal = all_auths.iter().map(|a| a.captured_amount).sum();
            let refunded: Decimal = all_auths.iter().map(|a| a.refunded_amount).sum();
            // Dispute credits came back from the merchant, like refunds.
            let dispute_credits: Decimal = card_txs
                .iter()
                .filter(|t| t.kind == TransactionType::DisputeCredit)
                .map(|t| t.amount)
                .sum();
            total += captured - refunded - dispute_credits;
            // Each won dispute credited the card exactly once, with its amount; nothing else did.
            for d in &all_disputes {
                let credits: Vec<_> = card_txs
                    .iter()
                    .filter(|t| t.kind == TransactionType::DisputeCredit
                        && t.authorization_id == d.authorization_id)
                    .collect();
                let won = all_disputes.iter().filter(|o| o.authorization_id == d.authorization_id && o.status == DisputeStatus::Won);
                prop_assert_eq!(credits.len(), won.clone().count());
                prop_assert_eq!(credits.iter().map(|t| t.amount).sum::<Decimal>(), won.map(|o| o.amount).sum::<Decimal>());
            }
            // A transfer is two entries that cancel out.
            let transfer_entries: Vec<_> = entries.iter().filter(|e| e.kind == EntryType::Transfer).collect();
            prop_assert_eq!(transfer_entries.len(), 2 * all_transfers.len());
            prop_assert_eq!(transfer_entries.iter().map(|e| e.amount).sum::<Decimal>(), Decimal::ZERO);
            let adjustments: Decimal = entries
                .iter()
                .filter(|e| e.kind == EntryType::Adjustment)
                .map(|e| e.amount)
                .sum();
            prop_assert_eq!(total, adjustments);
        }
    }
}
