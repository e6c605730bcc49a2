#!/usr/bin/env python3
"""Generates test/fixtures/pydantic-parity.json: for a corpus of request bodies, the exact 422 body a
FastAPI service would answer, computed by pydantic v2 itself.

The models below mirror Statehouse's request schemas (src/modules/*/*.schemas.ts), constraints included.
FastAPI validates a single body model with `from_attributes=True`, prefixes `loc` with "body", answers a
missing or null body with `missing`, and drops pydantic's `url`; `expected()` does the same.
Run it after changing a schema: `python3 scripts/pydantic-parity.py` (needs pydantic 2).
"""
import datetime
import enum
import json
import pathlib
from typing import Dict, Optional

import pydantic
from pydantic import BaseModel, Field, HttpUrl, TypeAdapter, ValidationError

CODES = ("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND "
         "OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY").split()
StateCode = enum.Enum("StateCode", {c: c for c in CODES}, type=str)
EntityType = enum.Enum("EntityType", {v: v for v in ["unset", "c_corp", "p_corp", "pllc", "llc", "llp", "lp", "gp"]}, type=str)
TaxClass = enum.Enum("TaxClass", {v: v for v in ["unset", "corp", "s_corp", "partnership", "disregarded", "tax_exempt"]}, type=str)
LLCManaged = enum.Enum("LLCManaged", {v: v for v in ["member_managed", "manager_managed"]}, type=str)
Method = enum.Enum("Method", {v: v for v in ["accrual", "cash"]}, type=str)
Period = enum.Enum("Period", {v: v for v in ["fiscal", "calendar"]}, type=str)
MonthName = enum.Enum("MonthName", {m: m for m in ["January", "February", "March", "April", "May", "June", "July",
                                                   "August", "September", "October", "November", "December"]}, type=str)
MonthNumber = enum.IntEnum("MonthNumber", {f"m{i}": i for i in range(1, 13)})

Name = Field(max_length=200, min_length=1)
Ein = Field(None, pattern=r"^\d{2}-?\d{7}$")
Phone = Field(None, pattern=r"^\+?[0-9][0-9 ().-]{5,30}$")
Naics = Field(None, pattern=r"^\d{2,6}$")
Year = Field(None, pattern=r"^(19|20)\d{2}$")


class Address(BaseModel):
    id: Optional[str] = Field(None, max_length=64)
    address_line_1: str = Field(max_length=200, min_length=1)
    address_line_2: Optional[str] = Field(None, max_length=200)
    city: str = Field(max_length=100, min_length=1)
    state: str = Field(max_length=100, min_length=1)
    country: str = Field(max_length=100, min_length=1)
    postal_code: str = Field(max_length=20, min_length=1)


class PlatformSignupRequest(BaseModel):
    user_email: str = Field(max_length=254)
    business_name: str = Name
    entity_type: EntityType
    tax_class: TaxClass
    incorporation_region: StateCode
    incorporated_date: datetime.date
    ein: Optional[str] = Ein
    llc_managed_type: Optional[LLCManaged] = None
    business_purpose: Optional[str] = Field(None, max_length=2000)
    business_phone: Optional[str] = Phone
    business_email: Optional[str] = Field(None, max_length=254)
    business_address: Optional[Address] = None
    mailing_address: Optional[Address] = None
    naics_code: Optional[str] = Naics
    accounting_method: Optional[Method] = None
    accounting_period: Optional[Period] = None
    accounting_year_end: Optional[MonthName] = None
    futa_liability_year: Optional[str] = Year
    external_company_id: Optional[str] = Field(None, max_length=200, min_length=1)
    authorization_callback_url: Optional[HttpUrl] = None


class EmbeddedSignupRequest(BaseModel):
    user_email: str = Field(max_length=254)
    business_name: str = Name
    entity_type: EntityType
    tax_classification: TaxClass
    incorporation_location: StateCode
    incorporation_date: datetime.date
    ein: Optional[str] = Ein
    llc_managed_type: Optional[LLCManaged] = None
    business_purpose: Optional[str] = Field(None, max_length=2000)
    business_phone: Optional[str] = Phone
    business_email: Optional[str] = Field(None, max_length=254)
    business_address: Optional[Address] = None
    mailing_address: Optional[Address] = None
    naics_code: Optional[str] = Naics
    accounting_method: Optional[Method] = None
    accounting_period: Optional[Period] = None
    accounting_year_end: Optional[MonthNumber] = None
    futa_liability_year: Optional[str] = Year
    external_company_id: Optional[str] = Field(None, max_length=200, min_length=1)
    authorization_callback_url: Optional[HttpUrl] = None


class BusinessInformation(BaseModel):
    incorporation_region: Optional[StateCode] = None
    entity_type: Optional[EntityType] = None
    tax_classification: Optional[TaxClass] = None
    llc_managed_type: Optional[LLCManaged] = None
    business_name: Optional[str] = Field(None, max_length=200, min_length=1)
    business_purpose: Optional[str] = Field(None, max_length=2000)
    ein: Optional[str] = Ein
    incorporation_date: Optional[datetime.date] = None
    naics_code: Optional[str] = Naics
    accounting_method: Optional[Method] = None
    accounting_period: Optional[Period] = None
    accounting_year_end: Optional[MonthNumber] = None
    futa_liability_year: Optional[str] = Year


class HostedSignupRequest(BaseModel):
    business_name: str = Name
    user_email: str = Field(max_length=254)
    callback_url: HttpUrl
    legal_entity_id: Optional[str] = Field(None, max_length=64)
    business_information: Optional[BusinessInformation] = None
    external_company_id: Optional[str] = Field(None, max_length=200, min_length=1)


class AuthRequest(BaseModel):
    legal_entity_id: str = Field(max_length=64)


class LocationConfig(BaseModel):
    has_employees: Optional[bool] = None
    has_physical_location: Optional[bool] = None
    employee_count: Optional[int] = Field(None, ge=0, le=10_000_000)


class UpdateLocationRequest(BaseModel):
    config: Optional[LocationConfig] = None


class RegionConfig(BaseModel):
    employee_count: Optional[int] = Field(ge=0, le=10_000_000)


class BatchRegionConfig(BaseModel):
    config: Dict[StateCode, RegionConfig] = Field(max_length=51)


def expected(model, body):
    """The `detail` list FastAPI would answer, or None when the body is valid."""
    if body is None:
        return [{"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}]
    try:
        TypeAdapter(model).validate_python(body, from_attributes=True)
        return None
    except ValidationError as error:
        out = []
        for e in error.errors(include_url=False):
            item = {"type": e["type"], "loc": ["body", *e["loc"]], "msg": e["msg"], "input": e["input"]}
            if "ctx" in e:
                item["ctx"] = {k: (v if isinstance(v, (str, int, float, bool)) else str(v)) for k, v in e["ctx"].items()}
            out.append(item)
        return out


# Values every field is tried with. Strings that our deliberate extra checks (email format) judge
# differently from a plain `str` are left out of the email fields.
WRONG = [5, 5.5, True, [], {}, None, "", "x", "2021-13-01", "9" * 300, "🙂"]
EMAIL_FIELDS = {"user_email", "business_email"}

VALID = {
    "/v2/signup": {"user_email": "a@example.com", "business_name": "Acme", "entity_type": "llc", "tax_class": "disregarded",
                   "incorporation_region": "TX", "incorporated_date": "2020-01-01"},
    "/accounts/signup": {"user_email": "a@example.com", "business_name": "Acme", "entity_type": "llc",
                         "tax_classification": "disregarded", "incorporation_location": "TX", "incorporation_date": "2020-01-01"},
    "/accounts/signup/sessions": {"business_name": "Acme", "user_email": "a@example.com", "callback_url": "https://p.example/cb"},
    "/accounts/auth": {"legal_entity_id": "le_x"},
    "PATCH /locations/CA": {"config": {"has_employees": True}},
    "PUT /v2/regions/CA": {"employee_count": 3},
    "/v2/regions": {"config": {"CA": {"employee_count": 1}}},
}
MODELS = {
    "/v2/signup": PlatformSignupRequest, "/accounts/signup": EmbeddedSignupRequest,
    "/accounts/signup/sessions": HostedSignupRequest, "/accounts/auth": AuthRequest,
    "PATCH /locations/CA": UpdateLocationRequest, "PUT /v2/regions/CA": RegionConfig, "/v2/regions": BatchRegionConfig,
}


def cases():
    for endpoint, model in MODELS.items():
        valid = VALID[endpoint]
        yield endpoint, valid
        yield endpoint, {}
        yield endpoint, None
        for other in [[], "text", 5, True, [valid]]:
            yield endpoint, other
        for field, info in model.model_fields.items():
            body = dict(valid)
            body.pop(field, None)
            yield endpoint, body
            for value in WRONG:
                if field in EMAIL_FIELDS and isinstance(value, str):
                    continue
                yield endpoint, {**valid, field: value}
        # several errors at once: order of fields
        yield endpoint, {k: 7 for k in model.model_fields}
    nested = [
        ("/v2/signup", {"business_address": {"city": 5}}),
        ("/v2/signup", {"business_address": {"address_line_1": "", "city": "c", "state": "s", "country": "US", "postal_code": "1" * 21}}),
        ("/v2/signup", {"mailing_address": "5 Main St"}),
        ("/v2/signup", {"incorporated_date": "2020-02-30"}),
        ("/v2/signup", {"incorporated_date": "2020-01-01T10:00:00"}),
        ("/v2/signup", {"incorporated_date": "2020-01-01T00:00:00"}),
        ("/v2/signup", {"incorporated_date": "01/02/2020"}),
        ("/v2/signup", {"incorporated_date": "2020/01/02"}),
        ("/v2/signup", {"incorporated_date": 86400}),
        ("/v2/signup", {"ein": "12-34567"}),
        ("/v2/signup", {"ein": "123456789"}),
        ("/v2/signup", {"accounting_year_end": 3}),
        ("/v2/signup", {"accounting_year_end": "march"}),
        ("/v2/signup", {"authorization_callback_url": "ftp://example.com"}),
        ("/v2/signup", {"authorization_callback_url": "not a url"}),
        ("/v2/signup", {"authorization_callback_url": "https://" + "a" * 2100 + ".com"}),
        ("/accounts/signup", {"accounting_year_end": "3"}),
        ("/accounts/signup", {"accounting_year_end": True}),
        ("/accounts/signup", {"accounting_year_end": 0}),
        ("/accounts/signup/sessions", {"business_information": {"incorporation_region": "ZZ", "accounting_year_end": 13, "incorporation_date": "x"}}),
        ("/accounts/signup/sessions", {"business_information": []}),
        ("PATCH /locations/CA", {"config": {"has_employees": "yes", "has_physical_location": "off", "employee_count": "12"}}),
        ("PATCH /locations/CA", {"config": {"has_employees": "maybe", "employee_count": -1}}),
        ("PATCH /locations/CA", {"config": {"has_employees": 2, "employee_count": 1.5}}),
        ("PATCH /locations/CA", {"config": {"employee_count": "1_000"}}),
        ("PATCH /locations/CA", {"config": {"employee_count": 20_000_000}}),
        ("PATCH /locations/CA", {"config": "x"}),
        ("/v2/regions", {"config": {"ZZ": {"employee_count": 1}, "ca": {"employee_count": 1}, "NY": {"employee_count": "x"}}}),
        ("/v2/regions", {"config": {"NY": None}}),
        ("/v2/regions", {"config": {"NY": {}}}),
        ("PUT /v2/regions/CA", {"employee_count": None}),
    ]
    for endpoint, patch in nested:
        yield endpoint, ({**VALID[endpoint], **patch} if endpoint != "/v2/regions" else patch)


def main():
    out = []
    seen = set()
    for endpoint, body in cases():
        key = json.dumps([endpoint, body], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append({"endpoint": endpoint, "body": body, "detail": expected(MODELS[endpoint], body)})
    target = pathlib.Path(__file__).resolve().parent.parent / "test" / "fixtures" / "pydantic-parity.json"
    target.write_text(json.dumps({"pydantic": pydantic.VERSION, "cases": out}, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(out)} cases written to {target} (pydantic {pydantic.VERSION})")


if __name__ == "__main__":
    main()
