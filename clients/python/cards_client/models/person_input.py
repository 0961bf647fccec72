from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.person_input_gender_type_0 import PersonInputGenderType0
from ..models.person_input_nationality_type_0 import PersonInputNationalityType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="PersonInput")


@_attrs_define
class PersonInput:
    """snake_case keys are accepted too (`first_name`).

    Attributes:
        first_name (str):
        last_name (str):
        email (str):
        phone_number (str):
        date_of_birth (datetime.date | None | Unset):
        nationality (None | PersonInputNationalityType0 | Unset):
        gender (None | PersonInputGenderType0 | Unset):
    """

    first_name: str
    last_name: str
    email: str
    phone_number: str
    date_of_birth: datetime.date | None | Unset = UNSET
    nationality: None | PersonInputNationalityType0 | Unset = UNSET
    gender: None | PersonInputGenderType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

        email = self.email

        phone_number = self.phone_number

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        elif isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        nationality: None | str | Unset
        if isinstance(self.nationality, Unset):
            nationality = UNSET
        elif isinstance(self.nationality, PersonInputNationalityType0):
            nationality = self.nationality.value
        else:
            nationality = self.nationality

        gender: None | str | Unset
        if isinstance(self.gender, Unset):
            gender = UNSET
        elif isinstance(self.gender, PersonInputGenderType0):
            gender = self.gender.value
        else:
            gender = self.gender

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "firstName": first_name,
                "lastName": last_name,
                "email": email,
                "phoneNumber": phone_number,
            }
        )
        if date_of_birth is not UNSET:
            field_dict["dateOfBirth"] = date_of_birth
        if nationality is not UNSET:
            field_dict["nationality"] = nationality
        if gender is not UNSET:
            field_dict["gender"] = gender

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_name = d.pop("firstName")

        last_name = d.pop("lastName")

        email = d.pop("email")

        phone_number = d.pop("phoneNumber")

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

        def _parse_nationality(data: object) -> None | PersonInputNationalityType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                nationality_type_0 = PersonInputNationalityType0(data)

                return nationality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonInputNationalityType0 | Unset, data)

        nationality = _parse_nationality(d.pop("nationality", UNSET))

        def _parse_gender(data: object) -> None | PersonInputGenderType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_0 = PersonInputGenderType0(data)

                return gender_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonInputGenderType0 | Unset, data)

        gender = _parse_gender(d.pop("gender", UNSET))

        person_input = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone_number=phone_number,
            date_of_birth=date_of_birth,
            nationality=nationality,
            gender=gender,
        )

        return person_input
