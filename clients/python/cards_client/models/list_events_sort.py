from enum import StrEnum


class ListEventsSort(StrEnum):
    CREATEDAT = "createdAt"
    DATA_OBJECT = "data.object"
    TYPE = "type"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_2 = "-_id"
    VALUE_4 = "-type"
    VALUE_6 = "-data.object"
    VALUE_8 = "-createdAt"

    def __str__(self) -> str:
        return str(self.value)
