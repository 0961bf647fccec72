from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.person_patch_gender_type_0 import PersonPatchGenderType0
from ..models.person_patch_nationality_type_0 import PersonPatchNationalityType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="PersonPatch")


@_attrs_define
class PersonPatch:
    """snake_case keys are accepted too (`first_name`).

    Attributes:
        first_name (str | Unset):
        last_name (str | Unset):
        date_of_birth (datetime.date | None | Unset):
        email (str | Unset):
        nationality (None | PersonPatchNationalityType0 | Unset):
        gender (None | PersonPatchGenderType0 | Unset):
        phone_number (str | Unset):
    """

    first_name: str | Unset = UNSET
    last_name: str | Unset = UNSET
    date_of_birth: datetime.date | None | Unset = UNSET
    email: str | Unset = UNSET
    nationality: None | PersonPatchNationalityType0 | Unset = UNSET
    gender: None | PersonPatchGenderType0 | Unset = UNSET
    phone_number: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        elif isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        email = self.email

        nationality: None | str | Unset
        if isinstance(self.nationality, Unset):
            nationality = UNSET
        elif isinstance(self.nationality, PersonPatchNationalityType0):
            nationality = self.nationality.value
        else:
            nationality = self.nationality

        gender: None | str | Unset
        if isinstance(self.gender, Unset):
            gender = UNSET
        elif isinstance(self.gender, PersonPatchGenderType0):
            gender = self.gender.value
        else:
            gender = self.gender

        phone_number = self.phone_number

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if date_of_birth is not UNSET:
            field_dict["dateOfBirth"] = date_of_birth
        if email is not UNSET:
            field_dict["email"] = email
        if nationality is not UNSET:
            field_dict["nationality"] = nationality
        if gender is not UNSET:
            field_dict["gender"] = gender
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_name = d.pop("firstName", UNSET)

        last_name = d.pop("lastName", UNSET)

        def _parse_date_of_birth(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("dateOfBirth", UNSET))

        email = d.pop("email", UNSET)

        def _parse_nationality(data: object) -> None | PersonPatchNationalityType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                nationality_type_0 = PersonPatchNationalityType0(data)

                return nationality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonPatchNationalityType0 | Unset, data)

        nationality = _parse_nationality(d.pop("nationality", UNSET))

        def _parse_gender(data: object) -> None | PersonPatchGenderType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_0 = PersonPatchGenderType0(data)

                return gender_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonPatchGenderType0 | Unset, data)

        gender = _parse_gender(d.pop("gender", UNSET))

        phone_number = d.pop("phoneNumber", UNSET)

        person_patch = cls(
            first_name=first_name,
            last_name=last_name,
            date_of_birth=date_of_birth,
            email=email,
            nationality=nationality,
            gender=gender,
            phone_number=phone_number,
        )

        return person_patch
