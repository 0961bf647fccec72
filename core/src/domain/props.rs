//! The money rules with no HTTP at all: random command sequences against `MemStore`, checking after
//! every step that money is neither made nor lost.

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::accounts::{
    self, AccountStatus, AccountType, AccountUpdate, Category, NewAccount, OwnerType,
};
use super::card_holders::{self, HolderMeta, Identification, NewCardHolder, Person};
use super::cards::{
    self, Brand, CancellationReason, CardStatus, CardType, CardUpdate, Funding, NewCard,
};
use super::ledger::{self, EntryType};
use super::vault::Vault;
use super::{Currency, IdGen, Scope};
use crate::env::{DeterministicEnv, Env};
use crate::storage::codec::JsonText;
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
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..3, proptest::option::of(100u32..8000))
            .prop_map(|(account, cents)| Op::Issue { account, cents }),
        (0usize..8, 0usize..3, 1u32..5000).prop_map(|(card, account, cents)| Op::Fund {
            card,
            account,
            cents
        }),
        (0usize..8, any::<bool>()).prop_map(|(card, to_other)| Op::Cancel { card, to_other }),
        (0usize..8).prop_map(|card| Op::Terminate { card }),
        (0usize..3, 0u32..20000).prop_map(|(account, cents)| Op::Adjust { account, cents }),
        (0usize..8).prop_map(|card| Op::Pause { card }),
        (0usize..3).prop_map(|account| Op::Block { account }),
    ]
}

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
    /// Runs `f` in one request-like unit: its writes land only if it returns `Ok`.
    fn run<T>(
        &mut self,
        f: impl FnOnce(&mut Scope, &Vault) -> super::Result<T>,
    ) -> super::Result<T> {
        let mut overlay = Overlay::new(&mut self.store);
        let result = {
            let mut s = Scope {
                tx: &mut overlay,
                client: "alice",
                now: self.env.now(),
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
    /// Σ account balances + Σ card balances = Σ adjustment entries; every account balance is the sum
    /// of its entries; nothing is negative; a refused command changes nothing.
    #[test]
    fn money_is_conserved_by_the_domain(ops in proptest::collection::vec(op(), 1..40)) {
        let env = DeterministicEnv::default();
        let mut w = World { store: MemStore::new(), ids: IdGen::new(&env), env, vault: Vault::new(&[9; 32]) };
        let accounts: Vec<String> = (0..3)
            .map(|_| w.run(|s, _| accounts::create(s, new_account(cents(5000)))).unwrap().id)
            .collect();
        let holder = w.run(|s, _| card_holders::create(s, holder(), Vec::new(), u64::MAX)).unwrap().id;
        let mut cards: Vec<String> = Vec::new();
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
                _ => Ok(()),
            };
            if result.is_err() {
                prop_assert!(w.store.iter().eq(before.iter()), "a refused {op:?} wrote");
            }
            let (balances, entries, all_cards) = {
                let env = DeterministicEnv::default();
                let mut s = Scope { tx: &mut w.store, client: "alice", now: env.now(), ids: &w.ids, env: &env };
                let a = accounts::all(&mut s).unwrap();
                let e = ledger::all_entries(&mut s).unwrap();
                let c = cards::all(&mut s).unwrap();
                (a, e, c)
            };
            let mut total = Decimal::ZERO;
            for a in &balances {
                prop_assert!(a.balance >= Decimal::ZERO);
                let sum: Decimal = entries.iter().filter(|e| e.account_id == a.id).map(|e| e.amount).sum();
                prop_assert_eq!(sum, a.balance);
                total += a.balance;
            }
            for c in &all_cards {
                prop_assert!(c.balance >= Decimal::ZERO);
                if c.status == CardStatus::Canceled {
                    prop_assert_eq!(c.balance, Decimal::ZERO);
                }
                total += c.balance;
            }
            let adjustments: Decimal = entries
                .iter()
                .filter(|e| e.kind == EntryType::Adjustment)
                .map(|e| e.amount)
                .sum();
            prop_assert_eq!(total, adjustments);
        }
    }
}
