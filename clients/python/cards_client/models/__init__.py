"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .account_category import AccountCategory
from .account_create import AccountCreate
from .account_create_category import AccountCreateCategory
from .account_create_owner_type import AccountCreateOwnerType
from .account_create_status_type_0 import AccountCreateStatusType0
from .account_create_type import AccountCreateType
from .account_detail import AccountDetail
from .account_detail_create import AccountDetailCreate
from .account_detail_create_details import AccountDetailCreateDetails
from .account_detail_create_type import AccountDetailCreateType
from .account_detail_details import AccountDetailDetails
from .account_detail_list import AccountDetailList
from .account_detail_list_filter import AccountDetailListFilter
from .account_detail_list_item import AccountDetailListItem
from .account_detail_list_item_details import AccountDetailListItemDetails
from .account_detail_list_item_type import AccountDetailListItemType
from .account_detail_type import AccountDetailType
from .account_detail_update import AccountDetailUpdate
from .account_detail_update_details_type_0 import AccountDetailUpdateDetailsType0
from .account_detail_update_type_type_0 import AccountDetailUpdateTypeType0
from .account_list import AccountList
from .account_list_filter import AccountListFilter
from .account_list_item import AccountListItem
from .account_list_item_category import AccountListItemCategory
from .account_list_item_owner_type import AccountListItemOwnerType
from .account_list_item_status import AccountListItemStatus
from .account_list_item_type import AccountListItemType
from .account_owner_type import AccountOwnerType
from .account_status import AccountStatus
from .account_type import AccountType
from .account_update import AccountUpdate
from .account_update_category_type_0 import AccountUpdateCategoryType0
from .account_update_owner_type_type_0 import AccountUpdateOwnerTypeType0
from .account_update_status_type_0 import AccountUpdateStatusType0
from .account_update_type_type_0 import AccountUpdateTypeType0
from .address import Address
from .address_input import AddressInput
from .address_input_country_code_type_0 import AddressInputCountryCodeType0
from .advance_test_clock_response_200 import AdvanceTestClockResponse200
from .amount_body import AmountBody
from .api_key import ApiKey
from .api_key_create import ApiKeyCreate
from .api_key_created import ApiKeyCreated
from .api_key_created_permissions import ApiKeyCreatedPermissions
from .api_key_created_permissions_accounts import ApiKeyCreatedPermissionsAccounts
from .api_key_created_permissions_api_keys import ApiKeyCreatedPermissionsApiKeys
from .api_key_created_permissions_audit import ApiKeyCreatedPermissionsAudit
from .api_key_created_permissions_authorizations import ApiKeyCreatedPermissionsAuthorizations
from .api_key_created_permissions_card_holders import ApiKeyCreatedPermissionsCardHolders
from .api_key_created_permissions_cards import ApiKeyCreatedPermissionsCards
from .api_key_created_permissions_disputes import ApiKeyCreatedPermissionsDisputes
from .api_key_created_permissions_events import ApiKeyCreatedPermissionsEvents
from .api_key_created_permissions_test_clock import ApiKeyCreatedPermissionsTestClock
from .api_key_created_permissions_webhooks import ApiKeyCreatedPermissionsWebhooks
from .api_key_list import ApiKeyList
from .api_key_list_filter import ApiKeyListFilter
from .api_key_list_item import ApiKeyListItem
from .api_key_list_item_permissions import ApiKeyListItemPermissions
from .api_key_list_item_permissions_accounts import ApiKeyListItemPermissionsAccounts
from .api_key_list_item_permissions_api_keys import ApiKeyListItemPermissionsApiKeys
from .api_key_list_item_permissions_audit import ApiKeyListItemPermissionsAudit
from .api_key_list_item_permissions_authorizations import ApiKeyListItemPermissionsAuthorizations
from .api_key_list_item_permissions_card_holders import ApiKeyListItemPermissionsCardHolders
from .api_key_list_item_permissions_cards import ApiKeyListItemPermissionsCards
from .api_key_list_item_permissions_disputes import ApiKeyListItemPermissionsDisputes
from .api_key_list_item_permissions_events import ApiKeyListItemPermissionsEvents
from .api_key_list_item_permissions_test_clock import ApiKeyListItemPermissionsTestClock
from .api_key_list_item_permissions_webhooks import ApiKeyListItemPermissionsWebhooks
from .api_key_permissions import ApiKeyPermissions
from .api_key_permissions_accounts import ApiKeyPermissionsAccounts
from .api_key_permissions_api_keys import ApiKeyPermissionsApiKeys
from .api_key_permissions_audit import ApiKeyPermissionsAudit
from .api_key_permissions_authorizations import ApiKeyPermissionsAuthorizations
from .api_key_permissions_card_holders import ApiKeyPermissionsCardHolders
from .api_key_permissions_cards import ApiKeyPermissionsCards
from .api_key_permissions_disputes import ApiKeyPermissionsDisputes
from .api_key_permissions_events import ApiKeyPermissionsEvents
from .api_key_permissions_test_clock import ApiKeyPermissionsTestClock
from .api_key_permissions_webhooks import ApiKeyPermissionsWebhooks
from .audit_event import AuditEvent
from .audit_event_action import AuditEventAction
from .audit_event_list import AuditEventList
from .audit_event_list_filter import AuditEventListFilter
from .audit_event_list_item import AuditEventListItem
from .audit_event_list_item_action import AuditEventListItemAction
from .audit_event_list_item_outcome import AuditEventListItemOutcome
from .audit_event_outcome import AuditEventOutcome
from .authorization import Authorization
from .authorization_channel import AuthorizationChannel
from .authorization_create import AuthorizationCreate
from .authorization_create_channel import AuthorizationCreateChannel
from .authorization_create_merchant import AuthorizationCreateMerchant
from .authorization_create_simulate_type_0 import AuthorizationCreateSimulateType0
from .authorization_create_simulate_type_0_decline_reason import AuthorizationCreateSimulateType0DeclineReason
from .authorization_decline_reason_type_1 import AuthorizationDeclineReasonType1
from .authorization_decline_reason_type_2_type_1 import AuthorizationDeclineReasonType2Type1
from .authorization_decline_reason_type_3_type_1 import AuthorizationDeclineReasonType3Type1
from .authorization_endpoint import AuthorizationEndpoint
from .authorization_endpoint_fallback import AuthorizationEndpointFallback
from .authorization_endpoint_set import AuthorizationEndpointSet
from .authorization_endpoint_set_fallback_type_0 import AuthorizationEndpointSetFallbackType0
from .authorization_list import AuthorizationList
from .authorization_list_filter import AuthorizationListFilter
from .authorization_list_item import AuthorizationListItem
from .authorization_list_item_channel import AuthorizationListItemChannel
from .authorization_list_item_decision_type_0 import AuthorizationListItemDecisionType0
from .authorization_list_item_decision_type_0_metadata_type_0 import AuthorizationListItemDecisionType0MetadataType0
from .authorization_list_item_decision_type_0_reason_type_1 import AuthorizationListItemDecisionType0ReasonType1
from .authorization_list_item_decision_type_0_reason_type_2_type_1 import (
    AuthorizationListItemDecisionType0ReasonType2Type1,
)
from .authorization_list_item_decision_type_0_reason_type_3_type_1 import (
    AuthorizationListItemDecisionType0ReasonType3Type1,
)
from .authorization_list_item_decision_type_0_source import AuthorizationListItemDecisionType0Source
from .authorization_list_item_decline_reason_type_1 import AuthorizationListItemDeclineReasonType1
from .authorization_list_item_decline_reason_type_2_type_1 import AuthorizationListItemDeclineReasonType2Type1
from .authorization_list_item_decline_reason_type_3_type_1 import AuthorizationListItemDeclineReasonType3Type1
from .authorization_list_item_merchant import AuthorizationListItemMerchant
from .authorization_list_item_status import AuthorizationListItemStatus
from .authorization_status import AuthorizationStatus
from .capture_authorization_response_200 import CaptureAuthorizationResponse200
from .card import Card
from .card_brand import CardBrand
from .card_cancellation_reason_type_1 import CardCancellationReasonType1
from .card_cancellation_reason_type_2_type_1 import CardCancellationReasonType2Type1
from .card_cancellation_reason_type_3_type_1 import CardCancellationReasonType3Type1
from .card_create import CardCreate
from .card_create_brand import CardCreateBrand
from .card_create_currency_type_0 import CardCreateCurrencyType0
from .card_create_metadata_type_0 import CardCreateMetadataType0
from .card_create_status import CardCreateStatus
from .card_create_type import CardCreateType
from .card_funding import CardFunding
from .card_holder import CardHolder
from .card_holder_create import CardHolderCreate
from .card_holder_create_multipart import CardHolderCreateMultipart
from .card_holder_create_multipart_country_type_0 import CardHolderCreateMultipartCountryType0
from .card_holder_create_multipart_gender_type_0 import CardHolderCreateMultipartGenderType0
from .card_holder_create_multipart_nationality_type_0 import CardHolderCreateMultipartNationalityType0
from .card_holder_identification import CardHolderIdentification
from .card_holder_list import CardHolderList
from .card_holder_list_filter import CardHolderListFilter
from .card_holder_list_item import CardHolderListItem
from .card_holder_list_item_address_type_0 import CardHolderListItemAddressType0
from .card_holder_list_item_identification import CardHolderListItemIdentification
from .card_holder_list_item_identification_document_type_0 import CardHolderListItemIdentificationDocumentType0
from .card_holder_list_item_identification_document_type_0_back_meta_type_0 import (
    CardHolderListItemIdentificationDocumentType0BackMetaType0,
)
from .card_holder_list_item_identification_document_type_0_back_meta_type_0_file_type import (
    CardHolderListItemIdentificationDocumentType0BackMetaType0FileType,
)
from .card_holder_list_item_identification_document_type_0_meta_type_0 import (
    CardHolderListItemIdentificationDocumentType0MetaType0,
)
from .card_holder_list_item_identification_document_type_0_meta_type_0_file_type import (
    CardHolderListItemIdentificationDocumentType0MetaType0FileType,
)
from .card_holder_list_item_identification_document_type_0_type_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType1,
)
from .card_holder_list_item_identification_document_type_0_type_type_2_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType2Type1,
)
from .card_holder_list_item_identification_document_type_0_type_type_3_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType3Type1,
)
from .card_holder_list_item_identification_document_type_0_urls import CardHolderListItemIdentificationDocumentType0Urls
from .card_holder_list_item_identification_document_type_0_verification_status import (
    CardHolderListItemIdentificationDocumentType0VerificationStatus,
)
from .card_holder_list_item_identification_proof_of_address_type_0 import (
    CardHolderListItemIdentificationProofOfAddressType0,
)
from .card_holder_list_item_identification_proof_of_address_type_0_meta_type_0 import (
    CardHolderListItemIdentificationProofOfAddressType0MetaType0,
)
from .card_holder_list_item_identification_proof_of_address_type_0_meta_type_0_file_type import (
    CardHolderListItemIdentificationProofOfAddressType0MetaType0FileType,
)
from .card_holder_list_item_identification_proof_of_address_type_0_type_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType1,
)
from .card_holder_list_item_identification_proof_of_address_type_0_type_type_2_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1,
)
from .card_holder_list_item_identification_proof_of_address_type_0_type_type_3_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1,
)
from .card_holder_list_item_identification_proof_of_address_type_0_verification_status import (
    CardHolderListItemIdentificationProofOfAddressType0VerificationStatus,
)
from .card_holder_list_item_meta import CardHolderListItemMeta
from .card_holder_list_item_person import CardHolderListItemPerson
from .card_holder_list_item_person_gender_type_1 import CardHolderListItemPersonGenderType1
from .card_holder_list_item_person_gender_type_2_type_1 import CardHolderListItemPersonGenderType2Type1
from .card_holder_list_item_person_gender_type_3_type_1 import CardHolderListItemPersonGenderType3Type1
from .card_holder_meta import CardHolderMeta
from .card_holder_update import CardHolderUpdate
from .card_list import CardList
from .card_list_filter import CardListFilter
from .card_list_item import CardListItem
from .card_list_item_brand import CardListItemBrand
from .card_list_item_cancellation_reason_type_1 import CardListItemCancellationReasonType1
from .card_list_item_cancellation_reason_type_2_type_1 import CardListItemCancellationReasonType2Type1
from .card_list_item_cancellation_reason_type_3_type_1 import CardListItemCancellationReasonType3Type1
from .card_list_item_metadata import CardListItemMetadata
from .card_list_item_spending_controls import CardListItemSpendingControls
from .card_list_item_spending_controls_channels import CardListItemSpendingControlsChannels
from .card_list_item_spending_controls_spending_limits_item import CardListItemSpendingControlsSpendingLimitsItem
from .card_list_item_spending_controls_spending_limits_item_interval import (
    CardListItemSpendingControlsSpendingLimitsItemInterval,
)
from .card_list_item_status import CardListItemStatus
from .card_list_item_type import CardListItemType
from .card_metadata import CardMetadata
from .card_secrets import CardSecrets
from .card_status import CardStatus
from .card_token import CardToken
from .card_transaction import CardTransaction
from .card_transaction_list import CardTransactionList
from .card_transaction_list_filter import CardTransactionListFilter
from .card_transaction_list_item import CardTransactionListItem
from .card_transaction_list_item_merchant import CardTransactionListItemMerchant
from .card_transaction_list_item_type import CardTransactionListItemType
from .card_transaction_type import CardTransactionType
from .card_type import CardType
from .card_update_type_0 import CardUpdateType0
from .card_update_type_1 import CardUpdateType1
from .card_update_type_1_status_type_1 import CardUpdateType1StatusType1
from .create_account_detail_response_201 import CreateAccountDetailResponse201
from .create_account_response_201 import CreateAccountResponse201
from .create_api_key_response_201 import CreateApiKeyResponse201
from .create_authorization_response_201 import CreateAuthorizationResponse201
from .create_card_holder_response_201 import CreateCardHolderResponse201
from .create_card_response_201 import CreateCardResponse201
from .create_card_token_response_201 import CreateCardTokenResponse201
from .create_dispute_response_201 import CreateDisputeResponse201
from .create_transfer_response_201 import CreateTransferResponse201
from .create_webhook_endpoint_response_201 import CreateWebhookEndpointResponse201
from .decision import Decision
from .decision_metadata_type_0 import DecisionMetadataType0
from .decision_reason_type_1 import DecisionReasonType1
from .decision_reason_type_2_type_1 import DecisionReasonType2Type1
from .decision_reason_type_3_type_1 import DecisionReasonType3Type1
from .decision_source import DecisionSource
from .delete_account_detail_response_200 import DeleteAccountDetailResponse200
from .delete_authorization_endpoint_response_200 import DeleteAuthorizationEndpointResponse200
from .delete_webhook_endpoint_response_200 import DeleteWebhookEndpointResponse200
from .dispute import Dispute
from .dispute_create import DisputeCreate
from .dispute_create_reason import DisputeCreateReason
from .dispute_list import DisputeList
from .dispute_list_filter import DisputeListFilter
from .dispute_list_item import DisputeListItem
from .dispute_list_item_reason import DisputeListItemReason
from .dispute_list_item_status import DisputeListItemStatus
from .dispute_reason import DisputeReason
from .dispute_resolve import DisputeResolve
from .dispute_resolve_outcome import DisputeResolveOutcome
from .dispute_status import DisputeStatus
from .document import Document
from .document_type_type_1 import DocumentTypeType1
from .document_type_type_2_type_1 import DocumentTypeType2Type1
from .document_type_type_3_type_1 import DocumentTypeType3Type1
from .document_urls import DocumentUrls
from .document_verification_status import DocumentVerificationStatus
from .error import Error
from .error_error import ErrorError
from .event import Event
from .event_data import EventData
from .event_data_object import EventDataObject
from .event_list import EventList
from .event_list_filter import EventListFilter
from .event_list_item import EventListItem
from .event_list_item_data import EventListItemData
from .event_list_item_data_object import EventListItemDataObject
from .event_list_item_type import EventListItemType
from .event_type import EventType
from .field_error import FieldError
from .file_meta import FileMeta
from .file_meta_file_type import FileMetaFileType
from .file_meta_input import FileMetaInput
from .file_meta_input_file_type import FileMetaInputFileType
from .fund_card_response_200 import FundCardResponse200
from .get_account_detail_response_200 import GetAccountDetailResponse200
from .get_account_response_200 import GetAccountResponse200
from .get_audit_event_response_200 import GetAuditEventResponse200
from .get_authorization_endpoint_response_200 import GetAuthorizationEndpointResponse200
from .get_authorization_response_200 import GetAuthorizationResponse200
from .get_card_holder_response_200 import GetCardHolderResponse200
from .get_card_response_200 import GetCardResponse200
from .get_card_spending_response_200 import GetCardSpendingResponse200
from .get_card_transaction_response_200 import GetCardTransactionResponse200
from .get_dispute_response_200 import GetDisputeResponse200
from .get_event_response_200 import GetEventResponse200
from .get_test_clock_response_200 import GetTestClockResponse200
from .get_transfer_response_200 import GetTransferResponse200
from .get_webhook_endpoint_response_200 import GetWebhookEndpointResponse200
from .health import Health
from .health_response_200 import HealthResponse200
from .health_status import HealthStatus
from .holder_meta_input import HolderMetaInput
from .identification_input import IdentificationInput
from .identification_input_document_type_0 import IdentificationInputDocumentType0
from .identification_input_document_type_0_issuing_country_type_0 import (
    IdentificationInputDocumentType0IssuingCountryType0,
)
from .identification_input_document_type_0_type_type_0 import IdentificationInputDocumentType0TypeType0
from .identification_input_document_type_0_urls_type_0 import IdentificationInputDocumentType0UrlsType0
from .identification_input_document_type_0_verification_status_type_0 import (
    IdentificationInputDocumentType0VerificationStatusType0,
)
from .identification_input_proof_of_address_type_0 import IdentificationInputProofOfAddressType0
from .identification_input_proof_of_address_type_0_type_type_0 import IdentificationInputProofOfAddressType0TypeType0
from .identification_input_proof_of_address_type_0_verification_status_type_0 import (
    IdentificationInputProofOfAddressType0VerificationStatusType0,
)
from .increment_authorization_response_200 import IncrementAuthorizationResponse200
from .increment_body import IncrementBody
from .ledger_entry import LedgerEntry
from .ledger_entry_list import LedgerEntryList
from .ledger_entry_list_filter import LedgerEntryListFilter
from .ledger_entry_list_item import LedgerEntryListItem
from .ledger_entry_list_item_type import LedgerEntryListItemType
from .ledger_entry_type import LedgerEntryType
from .limit_spend import LimitSpend
from .limit_spend_interval import LimitSpendInterval
from .list_account_details_sort import ListAccountDetailsSort
from .list_account_transactions_sort import ListAccountTransactionsSort
from .list_accounts_sort import ListAccountsSort
from .list_api_keys_sort import ListApiKeysSort
from .list_audit_events_sort import ListAuditEventsSort
from .list_authorizations_sort import ListAuthorizationsSort
from .list_card_authorizations_sort import ListCardAuthorizationsSort
from .list_card_holders_sort import ListCardHoldersSort
from .list_card_transactions_of_card_sort import ListCardTransactionsOfCardSort
from .list_card_transactions_sort import ListCardTransactionsSort
from .list_cards_populate import ListCardsPopulate
from .list_cards_sort import ListCardsSort
from .list_disputes_sort import ListDisputesSort
from .list_events_sort import ListEventsSort
from .list_meta import ListMeta
from .list_transfers_sort import ListTransfersSort
from .list_webhook_deliveries_sort import ListWebhookDeliveriesSort
from .list_webhook_endpoints_sort import ListWebhookEndpointsSort
from .merchant import Merchant
from .openapi_response_200 import OpenapiResponse200
from .person import Person
from .person_gender_type_1 import PersonGenderType1
from .person_gender_type_2_type_1 import PersonGenderType2Type1
from .person_gender_type_3_type_1 import PersonGenderType3Type1
from .person_input import PersonInput
from .person_input_gender_type_0 import PersonInputGenderType0
from .person_input_nationality_type_0 import PersonInputNationalityType0
from .person_patch import PersonPatch
from .person_patch_gender_type_0 import PersonPatchGenderType0
from .person_patch_nationality_type_0 import PersonPatchNationalityType0
from .proof_of_address import ProofOfAddress
from .proof_of_address_type_type_1 import ProofOfAddressTypeType1
from .proof_of_address_type_type_2_type_1 import ProofOfAddressTypeType2Type1
from .proof_of_address_type_type_3_type_1 import ProofOfAddressTypeType3Type1
from .proof_of_address_verification_status import ProofOfAddressVerificationStatus
from .refund_authorization_response_200 import RefundAuthorizationResponse200
from .replay_webhook_events_response_200 import ReplayWebhookEventsResponse200
from .resolve_dispute_response_200 import ResolveDisputeResponse200
from .retry_webhook_delivery_response_200 import RetryWebhookDeliveryResponse200
from .reverse_authorization_response_200 import ReverseAuthorizationResponse200
from .revoke_api_key_response_200 import RevokeApiKeyResponse200
from .rotate_authorization_endpoint_secret_response_200 import RotateAuthorizationEndpointSecretResponse200
from .rotate_webhook_endpoint_secret_response_200 import RotateWebhookEndpointSecretResponse200
from .set_authorization_endpoint_response_200 import SetAuthorizationEndpointResponse200
from .spending_controls import SpendingControls
from .spending_controls_channels import SpendingControlsChannels
from .spending_controls_input import SpendingControlsInput
from .spending_controls_input_channels_type_0 import SpendingControlsInputChannelsType0
from .spending_controls_input_spending_limits_type_0_item import SpendingControlsInputSpendingLimitsType0Item
from .spending_controls_input_spending_limits_type_0_item_interval import (
    SpendingControlsInputSpendingLimitsType0ItemInterval,
)
from .spending_controls_spending_limits_item import SpendingControlsSpendingLimitsItem
from .spending_controls_spending_limits_item_interval import SpendingControlsSpendingLimitsItemInterval
from .terminate_card_response_200 import TerminateCardResponse200
from .test_clock import TestClock
from .test_clock_advance import TestClockAdvance
from .test_webhook_endpoint_response_200 import TestWebhookEndpointResponse200
from .transfer import Transfer
from .transfer_create import TransferCreate
from .transfer_list import TransferList
from .transfer_list_filter import TransferListFilter
from .transfer_list_item import TransferListItem
from .update_account_detail_response_200 import UpdateAccountDetailResponse200
from .update_account_response_200 import UpdateAccountResponse200
from .update_card_holder_response_200 import UpdateCardHolderResponse200
from .update_card_response_200 import UpdateCardResponse200
from .update_webhook_endpoint_response_200 import UpdateWebhookEndpointResponse200
from .webhook_attempt import WebhookAttempt
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_delivery_list_filter import WebhookDeliveryListFilter
from .webhook_delivery_list_item import WebhookDeliveryListItem
from .webhook_delivery_list_item_attempts_item import WebhookDeliveryListItemAttemptsItem
from .webhook_delivery_list_item_status import WebhookDeliveryListItemStatus
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_create import WebhookEndpointCreate
from .webhook_endpoint_create_enabled_events_type_0_item import WebhookEndpointCreateEnabledEventsType0Item
from .webhook_endpoint_create_enabled_events_type_1_item import WebhookEndpointCreateEnabledEventsType1Item
from .webhook_endpoint_list import WebhookEndpointList
from .webhook_endpoint_list_filter import WebhookEndpointListFilter
from .webhook_endpoint_list_item import WebhookEndpointListItem
from .webhook_endpoint_list_item_status import WebhookEndpointListItemStatus
from .webhook_endpoint_status import WebhookEndpointStatus
from .webhook_endpoint_update import WebhookEndpointUpdate
from .webhook_endpoint_update_enabled_events_type_0_type_0_item import WebhookEndpointUpdateEnabledEventsType0Type0Item
from .webhook_endpoint_update_enabled_events_type_0_type_1_item import WebhookEndpointUpdateEnabledEventsType0Type1Item
from .webhook_endpoint_update_status_type_0 import WebhookEndpointUpdateStatusType0
from .webhook_replay import WebhookReplay
from .webhook_replay_result import WebhookReplayResult

__all__ = (
    "Account",
    "AccountCategory",
    "AccountCreate",
    "AccountCreateCategory",
    "AccountCreateOwnerType",
    "AccountCreateStatusType0",
    "AccountCreateType",
    "AccountDetail",
    "AccountDetailCreate",
    "AccountDetailCreateDetails",
    "AccountDetailCreateType",
    "AccountDetailDetails",
    "AccountDetailList",
    "AccountDetailListFilter",
    "AccountDetailListItem",
    "AccountDetailListItemDetails",
    "AccountDetailListItemType",
    "AccountDetailType",
    "AccountDetailUpdate",
    "AccountDetailUpdateDetailsType0",
    "AccountDetailUpdateTypeType0",
    "AccountList",
    "AccountListFilter",
    "AccountListItem",
    "AccountListItemCategory",
    "AccountListItemOwnerType",
    "AccountListItemStatus",
    "AccountListItemType",
    "AccountOwnerType",
    "AccountStatus",
    "AccountType",
    "AccountUpdate",
    "AccountUpdateCategoryType0",
    "AccountUpdateOwnerTypeType0",
    "AccountUpdateStatusType0",
    "AccountUpdateTypeType0",
    "Address",
    "AddressInput",
    "AddressInputCountryCodeType0",
    "AdvanceTestClockResponse200",
    "AmountBody",
    "ApiKey",
    "ApiKeyCreate",
    "ApiKeyCreated",
    "ApiKeyCreatedPermissions",
    "ApiKeyCreatedPermissionsAccounts",
    "ApiKeyCreatedPermissionsApiKeys",
    "ApiKeyCreatedPermissionsAudit",
    "ApiKeyCreatedPermissionsAuthorizations",
    "ApiKeyCreatedPermissionsCardHolders",
    "ApiKeyCreatedPermissionsCards",
    "ApiKeyCreatedPermissionsDisputes",
    "ApiKeyCreatedPermissionsEvents",
    "ApiKeyCreatedPermissionsTestClock",
    "ApiKeyCreatedPermissionsWebhooks",
    "ApiKeyList",
    "ApiKeyListFilter",
    "ApiKeyListItem",
    "ApiKeyListItemPermissions",
    "ApiKeyListItemPermissionsAccounts",
    "ApiKeyListItemPermissionsApiKeys",
    "ApiKeyListItemPermissionsAudit",
    "ApiKeyListItemPermissionsAuthorizations",
    "ApiKeyListItemPermissionsCardHolders",
    "ApiKeyListItemPermissionsCards",
    "ApiKeyListItemPermissionsDisputes",
    "ApiKeyListItemPermissionsEvents",
    "ApiKeyListItemPermissionsTestClock",
    "ApiKeyListItemPermissionsWebhooks",
    "ApiKeyPermissions",
    "ApiKeyPermissionsAccounts",
    "ApiKeyPermissionsApiKeys",
    "ApiKeyPermissionsAudit",
    "ApiKeyPermissionsAuthorizations",
    "ApiKeyPermissionsCardHolders",
    "ApiKeyPermissionsCards",
    "ApiKeyPermissionsDisputes",
    "ApiKeyPermissionsEvents",
    "ApiKeyPermissionsTestClock",
    "ApiKeyPermissionsWebhooks",
    "AuditEvent",
    "AuditEventAction",
    "AuditEventList",
    "AuditEventListFilter",
    "AuditEventListItem",
    "AuditEventListItemAction",
    "AuditEventListItemOutcome",
    "AuditEventOutcome",
    "Authorization",
    "AuthorizationChannel",
    "AuthorizationCreate",
    "AuthorizationCreateChannel",
    "AuthorizationCreateMerchant",
    "AuthorizationCreateSimulateType0",
    "AuthorizationCreateSimulateType0DeclineReason",
    "AuthorizationDeclineReasonType1",
    "AuthorizationDeclineReasonType2Type1",
    "AuthorizationDeclineReasonType3Type1",
    "AuthorizationEndpoint",
    "AuthorizationEndpointFallback",
    "AuthorizationEndpointSet",
    "AuthorizationEndpointSetFallbackType0",
    "AuthorizationList",
    "AuthorizationListFilter",
    "AuthorizationListItem",
    "AuthorizationListItemChannel",
    "AuthorizationListItemDecisionType0",
    "AuthorizationListItemDecisionType0MetadataType0",
    "AuthorizationListItemDecisionType0ReasonType1",
    "AuthorizationListItemDecisionType0ReasonType2Type1",
    "AuthorizationListItemDecisionType0ReasonType3Type1",
    "AuthorizationListItemDecisionType0Source",
    "AuthorizationListItemDeclineReasonType1",
    "AuthorizationListItemDeclineReasonType2Type1",
    "AuthorizationListItemDeclineReasonType3Type1",
    "AuthorizationListItemMerchant",
    "AuthorizationListItemStatus",
    "AuthorizationStatus",
    "CaptureAuthorizationResponse200",
    "Card",
    "CardBrand",
    "CardCancellationReasonType1",
    "CardCancellationReasonType2Type1",
    "CardCancellationReasonType3Type1",
    "CardCreate",
    "CardCreateBrand",
    "CardCreateCurrencyType0",
    "CardCreateMetadataType0",
    "CardCreateStatus",
    "CardCreateType",
    "CardFunding",
    "CardHolder",
    "CardHolderCreate",
    "CardHolderCreateMultipart",
    "CardHolderCreateMultipartCountryType0",
    "CardHolderCreateMultipartGenderType0",
    "CardHolderCreateMultipartNationalityType0",
    "CardHolderIdentification",
    "CardHolderList",
    "CardHolderListFilter",
    "CardHolderListItem",
    "CardHolderListItemAddressType0",
    "CardHolderListItemIdentification",
    "CardHolderListItemIdentificationDocumentType0",
    "CardHolderListItemIdentificationDocumentType0BackMetaType0",
    "CardHolderListItemIdentificationDocumentType0BackMetaType0FileType",
    "CardHolderListItemIdentificationDocumentType0MetaType0",
    "CardHolderListItemIdentificationDocumentType0MetaType0FileType",
    "CardHolderListItemIdentificationDocumentType0TypeType1",
    "CardHolderListItemIdentificationDocumentType0TypeType2Type1",
    "CardHolderListItemIdentificationDocumentType0TypeType3Type1",
    "CardHolderListItemIdentificationDocumentType0Urls",
    "CardHolderListItemIdentificationDocumentType0VerificationStatus",
    "CardHolderListItemIdentificationProofOfAddressType0",
    "CardHolderListItemIdentificationProofOfAddressType0MetaType0",
    "CardHolderListItemIdentificationProofOfAddressType0MetaType0FileType",
    "CardHolderListItemIdentificationProofOfAddressType0TypeType1",
    "CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1",
    "CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1",
    "CardHolderListItemIdentificationProofOfAddressType0VerificationStatus",
    "CardHolderListItemMeta",
    "CardHolderListItemPerson",
    "CardHolderListItemPersonGenderType1",
    "CardHolderListItemPersonGenderType2Type1",
    "CardHolderListItemPersonGenderType3Type1",
    "CardHolderMeta",
    "CardHolderUpdate",
    "CardList",
    "CardListFilter",
    "CardListItem",
    "CardListItemBrand",
    "CardListItemCancellationReasonType1",
    "CardListItemCancellationReasonType2Type1",
    "CardListItemCancellationReasonType3Type1",
    "CardListItemMetadata",
    "CardListItemSpendingControls",
    "CardListItemSpendingControlsChannels",
    "CardListItemSpendingControlsSpendingLimitsItem",
    "CardListItemSpendingControlsSpendingLimitsItemInterval",
    "CardListItemStatus",
    "CardListItemType",
    "CardMetadata",
    "CardSecrets",
    "CardStatus",
    "CardToken",
    "CardTransaction",
    "CardTransactionList",
    "CardTransactionListFilter",
    "CardTransactionListItem",
    "CardTransactionListItemMerchant",
    "CardTransactionListItemType",
    "CardTransactionType",
    "CardType",
    "CardUpdateType0",
    "CardUpdateType1",
    "CardUpdateType1StatusType1",
    "CreateAccountDetailResponse201",
    "CreateAccountResponse201",
    "CreateApiKeyResponse201",
    "CreateAuthorizationResponse201",
    "CreateCardHolderResponse201",
    "CreateCardResponse201",
    "CreateCardTokenResponse201",
    "CreateDisputeResponse201",
    "CreateTransferResponse201",
    "CreateWebhookEndpointResponse201",
    "Decision",
    "DecisionMetadataType0",
    "DecisionReasonType1",
    "DecisionReasonType2Type1",
    "DecisionReasonType3Type1",
    "DecisionSource",
    "DeleteAccountDetailResponse200",
    "DeleteAuthorizationEndpointResponse200",
    "DeleteWebhookEndpointResponse200",
    "Dispute",
    "DisputeCreate",
    "DisputeCreateReason",
    "DisputeList",
    "DisputeListFilter",
    "DisputeListItem",
    "DisputeListItemReason",
    "DisputeListItemStatus",
    "DisputeReason",
    "DisputeResolve",
    "DisputeResolveOutcome",
    "DisputeStatus",
    "Document",
    "DocumentTypeType1",
    "DocumentTypeType2Type1",
    "DocumentTypeType3Type1",
    "DocumentUrls",
    "DocumentVerificationStatus",
    "Error",
    "ErrorError",
    "Event",
    "EventData",
    "EventDataObject",
    "EventList",
    "EventListFilter",
    "EventListItem",
    "EventListItemData",
    "EventListItemDataObject",
    "EventListItemType",
    "EventType",
    "FieldError",
    "FileMeta",
    "FileMetaFileType",
    "FileMetaInput",
    "FileMetaInputFileType",
    "FundCardResponse200",
    "GetAccountDetailResponse200",
    "GetAccountResponse200",
    "GetAuditEventResponse200",
    "GetAuthorizationEndpointResponse200",
    "GetAuthorizationResponse200",
    "GetCardHolderResponse200",
    "GetCardResponse200",
    "GetCardSpendingResponse200",
    "GetCardTransactionResponse200",
    "GetDisputeResponse200",
    "GetEventResponse200",
    "GetTestClockResponse200",
    "GetTransferResponse200",
    "GetWebhookEndpointResponse200",
    "Health",
    "HealthResponse200",
    "HealthStatus",
    "HolderMetaInput",
    "IdentificationInput",
    "IdentificationInputDocumentType0",
    "IdentificationInputDocumentType0IssuingCountryType0",
    "IdentificationInputDocumentType0TypeType0",
    "IdentificationInputDocumentType0UrlsType0",
    "IdentificationInputDocumentType0VerificationStatusType0",
    "IdentificationInputProofOfAddressType0",
    "IdentificationInputProofOfAddressType0TypeType0",
    "IdentificationInputProofOfAddressType0VerificationStatusType0",
    "IncrementAuthorizationResponse200",
    "IncrementBody",
    "LedgerEntry",
    "LedgerEntryList",
    "LedgerEntryListFilter",
    "LedgerEntryListItem",
    "LedgerEntryListItemType",
    "LedgerEntryType",
    "LimitSpend",
    "LimitSpendInterval",
    "ListAccountDetailsSort",
    "ListAccountsSort",
    "ListAccountTransactionsSort",
    "ListApiKeysSort",
    "ListAuditEventsSort",
    "ListAuthorizationsSort",
    "ListCardAuthorizationsSort",
    "ListCardHoldersSort",
    "ListCardsPopulate",
    "ListCardsSort",
    "ListCardTransactionsOfCardSort",
    "ListCardTransactionsSort",
    "ListDisputesSort",
    "ListEventsSort",
    "ListMeta",
    "ListTransfersSort",
    "ListWebhookDeliveriesSort",
    "ListWebhookEndpointsSort",
    "Merchant",
    "OpenapiResponse200",
    "Person",
    "PersonGenderType1",
    "PersonGenderType2Type1",
    "PersonGenderType3Type1",
    "PersonInput",
    "PersonInputGenderType0",
    "PersonInputNationalityType0",
    "PersonPatch",
    "PersonPatchGenderType0",
    "PersonPatchNationalityType0",
    "ProofOfAddress",
    "ProofOfAddressTypeType1",
    "ProofOfAddressTypeType2Type1",
    "ProofOfAddressTypeType3Type1",
    "ProofOfAddressVerificationStatus",
    "RefundAuthorizationResponse200",
    "ReplayWebhookEventsResponse200",
    "ResolveDisputeResponse200",
    "RetryWebhookDeliveryResponse200",
    "ReverseAuthorizationResponse200",
    "RevokeApiKeyResponse200",
    "RotateAuthorizationEndpointSecretResponse200",
    "RotateWebhookEndpointSecretResponse200",
    "SetAuthorizationEndpointResponse200",
    "SpendingControls",
    "SpendingControlsChannels",
    "SpendingControlsInput",
    "SpendingControlsInputChannelsType0",
    "SpendingControlsInputSpendingLimitsType0Item",
    "SpendingControlsInputSpendingLimitsType0ItemInterval",
    "SpendingControlsSpendingLimitsItem",
    "SpendingControlsSpendingLimitsItemInterval",
    "TerminateCardResponse200",
    "TestClock",
    "TestClockAdvance",
    "TestWebhookEndpointResponse200",
    "Transfer",
    "TransferCreate",
    "TransferList",
    "TransferListFilter",
    "TransferListItem",
    "UpdateAccountDetailResponse200",
    "UpdateAccountResponse200",
    "UpdateCardHolderResponse200",
    "UpdateCardResponse200",
    "UpdateWebhookEndpointResponse200",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "WebhookDeliveryListFilter",
    "WebhookDeliveryListItem",
    "WebhookDeliveryListItemAttemptsItem",
    "WebhookDeliveryListItemStatus",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookEndpointCreate",
    "WebhookEndpointCreateEnabledEventsType0Item",
    "WebhookEndpointCreateEnabledEventsType1Item",
    "WebhookEndpointList",
    "WebhookEndpointListFilter",
    "WebhookEndpointListItem",
    "WebhookEndpointListItemStatus",
    "WebhookEndpointStatus",
    "WebhookEndpointUpdate",
    "WebhookEndpointUpdateEnabledEventsType0Type0Item",
    "WebhookEndpointUpdateEnabledEventsType0Type1Item",
    "WebhookEndpointUpdateStatusType0",
    "WebhookReplay",
    "WebhookReplayResult",
)
