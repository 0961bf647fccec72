from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.address_input import AddressInput
    from ..models.holder_meta_input import HolderMetaInput
    from ..models.identification_input import IdentificationInput
    from ..models.person_patch import PersonPatch


T = TypeVar("T", bound="CardHolderUpdate")


@_attrs_define
class CardHolderUpdate:
    """Merged over the stored holder, then validated as a whole.

    Attributes:
        name (str | Unset):
        person (PersonPatch | Unset): snake_case keys are accepted too (`first_name`).
        address (AddressInput | None | Unset):
        identification (IdentificationInput | None | Unset):
        meta (HolderMetaInput | None | Unset):
    """

    name: str | Unset = UNSET
    person: PersonPatch | Unset = UNSET
    address: AddressInput | None | Unset = UNSET
    identification: IdentificationInput | None | Unset = UNSET
    meta: HolderMetaInput | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.holder_meta_input import HolderMetaInput  # noqa: PLC0415
        from ..models.identification_input import IdentificationInput  # noqa: PLC0415

        name = self.name

        person: dict[str, Any] | Unset = UNSET
        if not isinstance(self.person, Unset):
            person = self.person.to_dict()

        address: dict[str, Any] | None | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        elif isinstance(self.address, AddressInput):
            address = self.address.to_dict()
        else:
            address = self.address

        identification: dict[str, Any] | None | Unset
        if isinstance(self.identification, Unset):
            identification = UNSET
        elif isinstance(self.identification, IdentificationInput):
            identification = self.identification.to_dict()
        else:
            identification = self.identification

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, HolderMetaInput):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if person is not UNSET:
            field_dict["person"] = person
        if address is not UNSET:
            field_dict["address"] = address
        if identification is not UNSET:
            field_dict["identification"] = identification
        if meta is not UNSET:
            field_dict["meta"] = meta

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.holder_meta_input import HolderMetaInput  # noqa: PLC0415
        from ..models.identification_input import IdentificationInput  # noqa: PLC0415
        from ..models.person_patch import PersonPatch  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _person = d.pop("person", UNSET)
        person: PersonPatch | Unset
        if isinstance(_person, Unset):
            person = UNSET
        else:
            person = PersonPatch.from_dict(_person)

        def _parse_address(data: object) -> AddressInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                address_type_0 = AddressInput.from_dict(data)

                return address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AddressInput | None | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        def _parse_identification(data: object) -> IdentificationInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                identification_type_0 = IdentificationInput.from_dict(data)

                return identification_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInput | None | Unset, data)

        identification = _parse_identification(d.pop("identification", UNSET))

        def _parse_meta(data: object) -> HolderMetaInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = HolderMetaInput.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HolderMetaInput | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        card_holder_update = cls(
            name=name,
            person=person,
            address=address,
            identification=identification,
            meta=meta,
        )

        return card_holder_update
