from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_holder_list_item_identification_document_type_0_meta_type_0_file_type import (
    CardHolderListItemIdentificationDocumentType0MetaType0FileType,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CardHolderListItemIdentificationDocumentType0MetaType0")


@_attrs_define
class CardHolderListItemIdentificationDocumentType0MetaType0:
    """
    Attributes:
        file_type (CardHolderListItemIdentificationDocumentType0MetaType0FileType | Unset):
        content_hash (str | Unset):
    """

    file_type: CardHolderListItemIdentificationDocumentType0MetaType0FileType | Unset = UNSET
    content_hash: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_type: str | Unset = UNSET
        if not isinstance(self.file_type, Unset):
            file_type = self.file_type.value

        content_hash = self.content_hash

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if file_type is not UNSET:
            field_dict["fileType"] = file_type
        if content_hash is not UNSET:
            field_dict["contentHash"] = content_hash

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _file_type = d.pop("fileType", UNSET)
        file_type: CardHolderListItemIdentificationDocumentType0MetaType0FileType | Unset
        if isinstance(_file_type, Unset):
            file_type = UNSET
        else:
            file_type = CardHolderListItemIdentificationDocumentType0MetaType0FileType(_file_type)

        content_hash = d.pop("contentHash", UNSET)

        card_holder_list_item_identification_document_type_0_meta_type_0 = cls(
            file_type=file_type,
            content_hash=content_hash,
        )

        card_holder_list_item_identification_document_type_0_meta_type_0.additional_properties = d
        return card_holder_list_item_identification_document_type_0_meta_type_0

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
