// Generated from the service's OpenAPI component schemas (card-core `http::openapi::typescript`);
// do not edit: `UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file` rewrites it.

/** One validation problem, as in the server's 400 body: `errors: FieldError[]`. */
export interface FieldError {
  /** Dot path of the offending field, e.g. "amount" or "spendingControls.spendingLimits[0].interval". */
  field: string;
  message: string;
}

/** JSON data as the server reads it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A request body being validated. Inputs are untrusted by nature (that is what validation is for),
 * so any JSON is accepted at run time; the named fields document what the server expects.
 */
export type Draft<T> = Partial<T> & { [key: string]: unknown };

export interface AccountCreate {
  ownerType: "user" | "business" | "system" | "provider";
  /** 1 to 200 characters. */
  ownerId?: string | null;
  /** 1 to 200 characters. */
  name: string;
  type: "savings" | "treasury" | "checking" | "credit";
  category: "fiat" | "crypto";
  status?: "active" | "inactive" | "suspended" | "closed" | null;
  /** Upper-cased. Matches `^[A-Za-z0-9]{3,10}$`. */
  currency: string;
  /** 1 to 200 characters. */
  network?: string | null;
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). At least 0. */
  balance?: number | null;
  canDebit?: boolean | null;
  canCredit?: boolean | null;
}

/** Without `name`, the name is `<firstName> <lastName>`. The quickstart's flat fields (`firstName`, `addressLine1`, `country`, ...) are accepted too. */
export interface CardHolderCreate {
  /** 1 to 200 characters. */
  name?: string | null;
  person: PersonInput;
  address?: AddressInput | null;
  identification?: IdentificationInput | null;
  meta?: HolderMetaInput | null;
}

export interface CardCreate {
  /** 1 to 64 characters. */
  debitAccountId: string;
  /** 1 to 64 characters. */
  cardHolderId: string;
  type: "virtual" | "physical";
  brand: "Visa" | "MasterCard";
  status: "active" | "inactive";
  currency?: "NGN" | "USD" | null;
  metadata?: { [key: string]: Json } | null;
  spendingControls?: SpendingControlsInput | null;
  enable2FA?: boolean | null;
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). At least 1. */
  amount?: number | null;
  disposable?: boolean | null;
}

/** `cancellationReason` is required with, and `creditAccountId` only accepted with, `status: canceled`. */
export interface CardUpdate {
  status?: "active" | "inactive" | "canceled" | null;
  cancellationReason?: "lost" | "stolen" | null;
  metadata?: { [key: string]: Json } | null;
  spendingControls?: SpendingControlsInput | null;
  /** 1 to 64 characters. */
  creditAccountId?: string | null;
}

export interface CardFunding {
  /** 1 to 64 characters. */
  debitAccountId: string;
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). At least 0.01. */
  amount: number;
}

export interface AuthorizationCreate {
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). Greater than 0. */
  amount: number;
  /** Upper-cased. Matches `^[A-Za-z0-9]{3,10}$`. */
  currency?: string | null;
  channel: "atm" | "pos" | "web" | "mobile";
  merchant: {
    /** 1 to 100 characters. */
    name: string;
    /** Matches `^[a-z0-9_]{1,64}$`. */
    category?: string | null;
    /** Matches `^[0-9]{4}$`. */
    mcc?: string | null;
    /** 1 to 100 characters. */
    city?: string | null;
    /** Matches `^[A-Za-z]{2}$`. */
    country?: string | null;
  };
  partialApprovalCapable?: boolean | null;
  /** A forced outcome: declined with this reason, nothing checked, no money moves. */
  simulate?: {
    declineReason: "card_canceled" | "card_inactive" | "currency_mismatch" | "channel_blocked" | "category_blocked" | "category_not_allowed" | "spending_limit" | "insufficient_funds" | "webhook_declined" | "webhook_timeout" | "webhook_error";
  } | null;
}

export interface IncrementBody {
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). Greater than 0. */
  amount: number;
}

export interface TestClockAdvance {
  /** At least 1. At most 315360000. */
  seconds: number;
}

export interface AuthorizationEndpointSet {
  /** https anywhere; http only to loopback; never link-local or metadata addresses; private ranges only when the operator allows them. 1 to 2048 characters. */
  url: string;
  /** At least 100. At most 10000. Default: 2000. */
  timeoutMs?: number | null;
  /** Default: "decline". */
  fallback?: "approve" | "decline" | null;
}

export interface TransferCreate {
  /** 1 to 64 characters. */
  debitAccountId: string;
  /** Another account than `debitAccountId`, in its currency. 1 to 64 characters. */
  creditAccountId: string;
  /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). At least 0.01. */
  amount: number;
  /** 1 to 255 characters. */
  narration?: string | null;
  /** 1 to 100 characters. */
  reference?: string | null;
}

export interface DisputeCreate {
  reason: "fraudulent" | "not_received" | "duplicate" | "not_as_described" | "other";
  /** Default: all of the capture not yet refunded or disputed. Greater than 0. */
  amount?: number | null;
  /** 1 to 1000 characters. */
  explanation?: string | null;
}

export interface DisputeResolve {
  outcome: "won" | "lost";
}

export interface WebhookEndpointCreate {
  /** https:// anywhere; http:// only to loopback. Link-local and cloud metadata addresses are refused, private ranges unless the operator allows them. 1 to 2048 characters. */
  url: string;
  /** Event types, or ["*"] for every type (alone). Duplicates are dropped. */
  enabledEvents: ("account.created" | "account.updated" | "card_holder.created" | "card_holder.updated" | "card.created" | "card.updated" | "card.funded" | "card.canceled" | "authorization.created" | "authorization.updated" | "transaction.created" | "transfer.created" | "dispute.created" | "dispute.updated")[] | "*"[];
  /** 1 to 255 characters. */
  description?: string | null;
}

export interface WebhookEndpointUpdate {
  /** https:// anywhere; http:// only to loopback. Link-local and cloud metadata addresses are refused, private ranges unless the operator allows them. 1 to 2048 characters. */
  url?: string | null;
  /** Event types, or ["*"] for every type (alone). Duplicates are dropped. */
  enabledEvents?: ("account.created" | "account.updated" | "card_holder.created" | "card_holder.updated" | "card.created" | "card.updated" | "card.funded" | "card.canceled" | "authorization.created" | "authorization.updated" | "transaction.created" | "transfer.created" | "dispute.created" | "dispute.updated")[] | "*"[] | null;
  /** 1 to 255 characters. */
  description?: string | null;
  status?: "enabled" | "disabled" | null;
}

/** snake_case keys are accepted too (`first_name`). */
export interface PersonInput {
  /** 1 to 200 characters. */
  firstName: string;
  /** 1 to 200 characters. */
  lastName: string;
  /** Not in the future (any real date before today is accepted). */
  dateOfBirth?: string | null;
  /** At most 254 characters. Matches `^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$`. */
  email: string;
  /** ISO 3166-1 alpha-2 */
  nationality?: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW" | null;
  gender?: "m" | "f" | "o" | null;
  /** Matches `^\+?[0-9]{7,15}$`. */
  phoneNumber: string;
}

export interface AddressInput {
  /** 1 to 200 characters. */
  line1?: string | null;
  /** 1 to 200 characters. */
  city?: string | null;
  /** 1 to 200 characters. */
  state?: string | null;
  /** 1 to 20 characters. */
  postalCode?: string | null;
  /** ISO 3166-1 alpha-2 */
  countryCode?: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW" | null;
}

export interface IdentificationInput {
  document?: {
    type?: "passport" | "national_id" | "drivers_license" | "voters_card" | "residence_permit" | null;
    /** 1 to 100 characters. */
    number?: string | null;
    /** Not after expiryDate. */
    issueDate?: string | null;
    /** Not before issueDate. */
    expiryDate?: string | null;
    /** ISO 3166-1 alpha-2 */
    issuingCountry?: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW" | null;
    verificationStatus?: "pending" | "verified" | "rejected" | null;
    /** 1 to 1000 characters. */
    description?: string | null;
    urls?: {
      /** 1 to 2048 characters. */
      main?: string | null;
      /** 1 to 2048 characters. */
      back?: string | null;
    } | null;
    meta?: FileMetaInput | null;
    backMeta?: FileMetaInput | null;
  } | null;
  proofOfAddress?: {
    type?: "utility_bill" | "bank_statement" | "tenancy_agreement" | "government_letter" | null;
    /** 1 to 200 characters. */
    documentId?: string | null;
    verificationStatus?: "pending" | "verified" | "rejected" | null;
    /** 1 to 1000 characters. */
    description?: string | null;
    /** 1 to 2048 characters. */
    url?: string | null;
    meta?: FileMetaInput | null;
  } | null;
}

export interface HolderMetaInput {
  /** 1 to 200 characters. */
  fundingSource?: string | null;
  monthlyTransactionValue?: string | number | null;
}

/** Allowed and blocked categories cannot both be non-empty. */
export interface SpendingControlsInput {
  channels?: {
    atm?: boolean | null;
    pos?: boolean | null;
    web?: boolean | null;
    mobile?: boolean | null;
  } | null;
  /** At most 100 items. */
  allowedCategories?: string[] | null;
  /** At most 100 items. */
  blockedCategories?: string[] | null;
  /** At most 20 items. */
  spendingLimits?: {
    /** Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip). Greater than 0. */
    amount: number;
    interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
    /** At most 100 items. */
    categories?: string[] | null;
  }[] | null;
}

export interface FileMetaInput {
  fileType: "image/jpeg" | "image/png" | "application/pdf";
  /** Matches `^sha256:[0-9a-f]{64}$`. */
  contentHash: string;
}

/** POST /accounts */
export type CreateAccountBody = AccountCreate;
/** POST /card-holders, JSON form */
export type CreateCardHolderBody = CardHolderCreate;
/** POST /cards */
export type CreateCardBody = CardCreate;
/** PUT /cards/{id} */
export type UpdateCardBody = CardUpdate;
/** POST /cards/{id}/fund */
export type FundCardBody = CardFunding;
/** POST /cards/{id}/authorizations (a simulated purchase) */
export type CreateAuthorizationBody = AuthorizationCreate;
/** POST /authorizations/{id}/increment */
export type IncrementAuthorizationBody = IncrementBody;
/** POST /test-clock/advance */
export type AdvanceTestClockBody = TestClockAdvance;
/** PUT /authorization-endpoint */
export type SetAuthorizationEndpointBody = AuthorizationEndpointSet;
/** POST /accounts/transfers */
export type CreateTransferBody = TransferCreate;
/** POST /card-transactions/{id}/disputes */
export type CreateDisputeBody = DisputeCreate;
/** POST /disputes/{id}/resolve (the simulated network's answer) */
export type ResolveDisputeBody = DisputeResolve;
/** POST /webhook-endpoints */
export type CreateWebhookEndpointBody = WebhookEndpointCreate;
/** PUT /webhook-endpoints/{id} */
export type UpdateWebhookEndpointBody = WebhookEndpointUpdate;

/** The path segment of a list endpoint. */
export type ListResource =
  "accounts"
  | "account-details"
  | "transactions"
  | "cards"
  | "card-holders"
  | "authorizations"
  | "card-transactions"
  | "events"
  | "transfers"
  | "disputes"
  | "webhook-endpoints"
  | "deliveries";

/** The normalized plan of a list query, as the server will run it. */
export interface ListPlan {
  page: number;
  limit: number;
  sort: { field: string; order: "asc" | "desc" }[];
  /** The projection (`_id` is always kept), or null for every field. */
  fields: string[] | null;
  search: string | null;
  /** The fields searched: those given, or the resource's default text fields. */
  searchIn: string[];
  /** The whole filter, normalized: `{status: "active", balance: {gte: 100}}`; `{}` for none. */
  filter: { [field: string]: Json };
  populate: { name: string; fields: string[] | null }[];
}

export type ParsedListQuery = { ok: true; plan: ListPlan } | { ok: false; errors: FieldError[] };
