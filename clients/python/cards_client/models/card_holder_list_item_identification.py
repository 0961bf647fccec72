from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_holder_list_item_identification_document_type_0 import (
        CardHolderListItemIdentificationDocumentType0,
    )
    from ..models.card_holder_list_item_identification_proof_of_address_type_0 import (
        CardHolderListItemIdentificationProofOfAddressType0,
    )


T = TypeVar("T", bound="CardHolderListItemIdentification")


@_attrs_define
class CardHolderListItemIdentification:
    """
    Attributes:
        document (CardHolderListItemIdentificationDocumentType0 | None | Unset):
        proof_of_address (CardHolderListItemIdentificationProofOfAddressType0 | None | Unset):
    """

    document: CardHolderListItemIdentificationDocumentType0 | None | Unset = UNSET
    proof_of_address: CardHolderListItemIdentificationProofOfAddressType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_holder_list_item_identification_document_type_0 import (
            CardHolderListItemIdentificationDocumentType0,  # noqa: PLC0415
        )
        from ..models.card_holder_list_item_identification_proof_of_address_type_0 import (
            CardHolderListItemIdentificationProofOfAddressType0,  # noqa: PLC0415
        )

        document: dict[str, Any] | None | Unset
        if isinstance(self.document, Unset):
            document = UNSET
        elif isinstance(self.document, CardHolderListItemIdentificationDocumentType0):
            document = self.document.to_dict()
        else:
            document = self.document

        proof_of_address: dict[str, Any] | None | Unset
        if isinstance(self.proof_of_address, Unset):
            proof_of_address = UNSET
        elif isinstance(self.proof_of_address, CardHolderListItemIdentificationProofOfAddressType0):
            proof_of_address = self.proof_of_address.to_dict()
        else:
            proof_of_address = self.proof_of_address

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if document is not UNSET:
            field_dict["document"] = document
        if proof_of_address is not UNSET:
            field_dict["proofOfAddress"] = proof_of_address

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_holder_list_item_identification_document_type_0 import (
            CardHolderListItemIdentificationDocumentType0,  # noqa: PLC0415
        )
        from ..models.card_holder_list_item_identification_proof_of_address_type_0 import (
            CardHolderListItemIdentificationProofOfAddressType0,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_document(data: object) -> CardHolderListItemIdentificationDocumentType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                document_type_0 = CardHolderListItemIdentificationDocumentType0.from_dict(data)

                return document_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemIdentificationDocumentType0 | None | Unset, data)

        document = _parse_document(d.pop("document", UNSET))

        def _parse_proof_of_address(data: object) -> CardHolderListItemIdentificationProofOfAddressType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proof_of_address_type_0 = CardHolderListItemIdentificationProofOfAddressType0.from_dict(data)

                return proof_of_address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemIdentificationProofOfAddressType0 | None | Unset, data)

        proof_of_address = _parse_proof_of_address(d.pop("proofOfAddress", UNSET))

        card_holder_list_item_identification = cls(
            document=document,
            proof_of_address=proof_of_address,
        )

        card_holder_list_item_identification.additional_properties = d
        return card_holder_list_item_identification

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
