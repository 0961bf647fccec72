from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CardHolderListItemIdentificationDocumentType0Urls")


@_attrs_define
class CardHolderListItemIdentificationDocumentType0Urls:
    """
    Attributes:
        main (None | str | Unset):
        back (None | str | Unset):
    """

    main: None | str | Unset = UNSET
    back: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        main: None | str | Unset
        if isinstance(self.main, Unset):
            main = UNSET
        else:
            main = self.main

        back: None | str | Unset
        if isinstance(self.back, Unset):
            back = UNSET
        else:
            back = self.back

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if main is not UNSET:
            field_dict["main"] = main
        if back is not UNSET:
            field_dict["back"] = back

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_main(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        main = _parse_main(d.pop("main", UNSET))

        def _parse_back(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        back = _parse_back(d.pop("back", UNSET))

        card_holder_list_item_identification_document_type_0_urls = cls(
            main=main,
            back=back,
        )

        card_holder_list_item_identification_document_type_0_urls.additional_properties = d
        return card_holder_list_item_identification_document_type_0_urls

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
