from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_holder_list_item_identification_proof_of_address_type_0_type_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType1,
)
from ..models.card_holder_list_item_identification_proof_of_address_type_0_type_type_2_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1,
)
from ..models.card_holder_list_item_identification_proof_of_address_type_0_type_type_3_type_1 import (
    CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1,
)
from ..models.card_holder_list_item_identification_proof_of_address_type_0_verification_status import (
    CardHolderListItemIdentificationProofOfAddressType0VerificationStatus,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_holder_list_item_identification_proof_of_address_type_0_meta_type_0 import (
        CardHolderListItemIdentificationProofOfAddressType0MetaType0,
    )


T = TypeVar("T", bound="CardHolderListItemIdentificationProofOfAddressType0")


@_attrs_define
class CardHolderListItemIdentificationProofOfAddressType0:
    """
    Attributes:
        type_ (CardHolderListItemIdentificationProofOfAddressType0TypeType1 |
            CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1 |
            CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1 | None | Unset):
        document_id (None | str | Unset):
        verification_status (CardHolderListItemIdentificationProofOfAddressType0VerificationStatus | Unset):
        description (None | str | Unset):
        url (None | str | Unset):
        meta (CardHolderListItemIdentificationProofOfAddressType0MetaType0 | None | Unset):
    """

    type_: (
        CardHolderListItemIdentificationProofOfAddressType0TypeType1
        | CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1
        | CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1
        | None
        | Unset
    ) = UNSET
    document_id: None | str | Unset = UNSET
    verification_status: CardHolderListItemIdentificationProofOfAddressType0VerificationStatus | Unset = UNSET
    description: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    meta: CardHolderListItemIdentificationProofOfAddressType0MetaType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_holder_list_item_identification_proof_of_address_type_0_meta_type_0 import (
            CardHolderListItemIdentificationProofOfAddressType0MetaType0,  # noqa: PLC0415
        )

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, CardHolderListItemIdentificationProofOfAddressType0TypeType1):
            type_ = self.type_.value
        elif isinstance(self.type_, CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1):
            type_ = self.type_.value
        elif isinstance(self.type_, CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1):
            type_ = self.type_.value
        else:
            type_ = self.type_

        document_id: None | str | Unset
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        verification_status: str | Unset = UNSET
        if not isinstance(self.verification_status, Unset):
            verification_status = self.verification_status.value

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, CardHolderListItemIdentificationProofOfAddressType0MetaType0):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if verification_status is not UNSET:
            field_dict["verificationStatus"] = verification_status
        if description is not UNSET:
            field_dict["description"] = description
        if url is not UNSET:
            field_dict["url"] = url
        if meta is not UNSET:
            field_dict["meta"] = meta

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_holder_list_item_identification_proof_of_address_type_0_meta_type_0 import (
            CardHolderListItemIdentificationProofOfAddressType0MetaType0,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_type_(
            data: object,
        ) -> (
            CardHolderListItemIdentificationProofOfAddressType0TypeType1
            | CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1
            | CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_1 = CardHolderListItemIdentificationProofOfAddressType0TypeType1(data)

                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_2_type_1 = CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1(data)

                return type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_3_type_1 = CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1(data)

                return type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CardHolderListItemIdentificationProofOfAddressType0TypeType1
                | CardHolderListItemIdentificationProofOfAddressType0TypeType2Type1
                | CardHolderListItemIdentificationProofOfAddressType0TypeType3Type1
                | None
                | Unset,
                data,
            )

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_document_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_id = _parse_document_id(d.pop("documentId", UNSET))

        _verification_status = d.pop("verificationStatus", UNSET)
        verification_status: CardHolderListItemIdentificationProofOfAddressType0VerificationStatus | Unset
        if isinstance(_verification_status, Unset):
            verification_status = UNSET
        else:
            verification_status = CardHolderListItemIdentificationProofOfAddressType0VerificationStatus(
                _verification_status
            )

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_meta(data: object) -> CardHolderListItemIdentificationProofOfAddressType0MetaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = CardHolderListItemIdentificationProofOfAddressType0MetaType0.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemIdentificationProofOfAddressType0MetaType0 | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        card_holder_list_item_identification_proof_of_address_type_0 = cls(
            type_=type_,
            document_id=document_id,
            verification_status=verification_status,
            description=description,
            url=url,
            meta=meta,
        )

        card_holder_list_item_identification_proof_of_address_type_0.additional_properties = d
        return card_holder_list_item_identification_proof_of_address_type_0

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
