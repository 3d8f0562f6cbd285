import {
  daysOf,
  eurosForAccountant,
  lisbonDateTime,
  lisbonDay,
  medusaPaymentState,
  periodOf,
  periodPaymentsCsv,
  referenceText,
  timeToPayBucket,
  type PeriodPayment,
} from "../owner-numbers"

describe("the period of the owner's numbers", () => {
  it("is the last 30 Lisbon days, today included, unless asked", () => {
    // 23:30 UTC on 31 July is 1 August in Lisbon (summer time).
    expect(periodOf({}, new Date("2026-07-31T23:30:00Z"))).toEqual({ from: "2026-07-03", to: "2026-08-01" })
    expect(periodOf({ from: "2026-11-01", to: "2026-11-30" }, new Date())).toEqual({
      from: "2026-11-01",
      to: "2026-11-30",
    })
    expect(periodOf({ to: "2026-03-01" }, new Date())).toEqual({ from: "2026-01-31", to: "2026-03-01" })
  })

  it("refuses an end before the start and a period longer than 367 days, saying so", () => {
    expect(periodOf({ from: "2026-11-02", to: "2026-11-01" }, new Date())).toEqual({
      error: "the period's start (2026-11-02) is after its end (2026-11-01)",
    })
    expect(periodOf({ from: "2025-01-01", to: "2026-01-03" }, new Date())).toEqual({
      error: "a period covers at most 367 days (asked: 368)",
    })
  })

  it("counts Lisbon's calendar days across the change of hour", () => {
    expect(daysOf({ from: "2026-10-24", to: "2026-10-26" })).toEqual(["2026-10-24", "2026-10-25", "2026-10-26"])
    expect(lisbonDay(new Date("2026-10-25T00:30:00Z"))).toBe("2026-10-25") // 01:30 summer time
    expect(lisbonDay(new Date("2026-12-31T23:59:00Z"))).toBe("2026-12-31") // winter: Lisbon is UTC
  })
})

describe("the time to pay", () => {
  it.each([
    [0, "0"],
    [1, "1"],
    [6, "6"],
    [7, "7+"],
    [40, "7+"],
  ])("%s days is the bucket %s", (days, bucket) => {
    expect(timeToPayBucket(days)).toBe(bucket)
  })
})

describe("the accountant's CSV", () => {
  const paidRow: PeriodPayment = {
    order_display_id: 12,
    order_id: "order_1",
    entity: "12345",
    reference: "000123450",
    amount_cents: 2498,
    captured_cents: 2498,
    refunded_cents: 1000,
    platform_status: "APPROVED",
    platform_amount_cents: 2498,
    platform_refunded_cents: 1000,
    medusa_state: "partially_refunded",
    issued_at: new Date("2026-07-01T10:00:00Z"),
    paid_at: null,
  }

  it("writes euros with a decimal comma and two decimals", () => {
    expect([2498, 5, 0, 100000, -1999].map(eurosForAccountant)).toEqual(["24,98", "0,05", "0,00", "1000,00", "-19,99"])
  })

  it("writes references as slips print them, so a spreadsheet keeps their leading zeros", () => {
    expect(referenceText("000123450")).toBe("000 123 450")
    expect(referenceText("12345")).toBe("12345")
  })

  it("writes dates and times in Lisbon", () => {
    expect(lisbonDateTime(new Date("2026-07-01T23:30:00Z"))).toBe("2026-07-02 00:30")
    expect(lisbonDateTime(new Date("2026-01-15T09:05:00Z"))).toBe("2026-01-15 09:05")
    expect(lisbonDateTime(null)).toBe("")
  })

  it("quotes a field that holds the separator, a quote or a line break", () => {
    const csv = periodPaymentsCsv([{ ...paidRow, entity: 'a;b"c' }])
    expect(csv.split("\r\n")[1]).toMatch(/^12;"a;b""c";/)
  })

  // OWASP's CSV injection: a cell a spreadsheet would read as a formula. The platform's text cells get a single quote
  // before it and are quoted; the amounts the plugin computes stay numbers, a negative one too.
  const cellsOf = (csv: string) => csv.split("\r\n")[1]!.split(";")
  const COLUMN = { entity: 1, reference: 2, platform_status: 9 } as const
  it.each([
    ["entity", '=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ["entity", "+1+cmd|' /C calc'!A0", `"'+1+cmd|' /C calc'!A0"`],
    ["reference", "-2+3", `"'-2+3"`],
    ["reference", "@SUM(1+1)", `"'@SUM(1+1)"`],
    ["platform_status", "\t=1+1", `"'\t=1+1"`],
    ["platform_status", "\r=1+1", `"'\r=1+1"`],
    ["platform_status", "APPROVED", "APPROVED"],
    ["entity", "12345", "12345"],
    ["reference", "000123450", "000 123 450"],
  ] as const)("writes the platform's %s %j as the cell %j", (field, value, cell) => {
    expect(cellsOf(periodPaymentsCsv([{ ...paidRow, [field]: value }]))[COLUMN[field]]).toBe(cell)
  })

  it("writes the amounts it computes as numbers a spreadsheet sums, a negative one too", () => {
    const cells = cellsOf(periodPaymentsCsv([{ ...paidRow, refunded_cents: -1999, platform_refunded_cents: -5 }]))
    expect([cells[5], cells[8]]).toEqual(["-19,99", "-0,05"])
  })

  it("is UTF-8 with a byte order mark, ';' between fields, CRLF line ends, the states in Portuguese", () => {
    const row = paidRow
    expect(periodPaymentsCsv([row])).toBe(
      "\uFEFFEncomenda;Entidade;Referência;Valor (EUR);Capturado no Medusa (EUR);Reembolsado no Medusa (EUR);" +
        "Estado no Medusa;Valor aprovado na plataforma (EUR);Reembolsado na plataforma (EUR);Estado na plataforma;" +
        "Emitida em (Lisboa);Paga em (Lisboa)\r\n" +
        "12;12345;000 123 450;24,98;24,98;10,00;parcialmente reembolsado;24,98;10,00;APPROVED;2026-07-01 11:00;\r\n"
    )
  })
})

describe("where a reference stands on Medusa's side", () => {
  const base = { session_status: "authorized", expired: false, captured_cents: 0, refunded_cents: 0 }
  it.each([
    [{ ...base, session_status: "pending_authorization" }, "waiting"],
    [{ ...base, captured_cents: 2498 }, "paid"],
    [{ ...base, captured_cents: 2498, refunded_cents: 1000 }, "partially_refunded"],
    [{ ...base, captured_cents: 2498, refunded_cents: 2498 }, "refunded"],
    [{ ...base, session_status: "canceled", expired: true }, "expired"],
    [{ ...base, session_status: "canceled" }, "cancelled"],
    [{ ...base, session_status: "canceled", expired: true, captured_cents: 2498 }, "paid"],
    [{ ...base, session_status: "error" }, "other"],
  ] as const)("%o is %s", (payment, state) => {
    expect(medusaPaymentState(payment)).toBe(state)
  })
})
