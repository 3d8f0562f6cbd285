import { isInterruptedCompletion, RESUME_AFTER_MS } from "../interrupted-completion"

const NOW = new Date("2026-11-23T12:00:00Z")
const ago = (ms: number) => new Date(NOW.getTime() - ms)

describe("an interrupted checkout completion (order created, REFPAY session never authorised)", () => {
  it.each([
    [
      "a pending session of an order, untouched for a minute",
      { status: "pending", orderId: "order_1", completionStarted: true, updatedAt: ago(RESUME_AFTER_MS) },
      true,
    ],
    [
      "a pending session of an order changed just now (its completion may still be running)",
      { status: "pending", orderId: "order_1", completionStarted: true, updatedAt: ago(RESUME_AFTER_MS - 1) },
      false,
    ],
    [
      "a pending session of a cart that never became an order",
      { status: "pending", orderId: null, completionStarted: true, updatedAt: ago(10 * RESUME_AFTER_MS) },
      false,
    ],
    [
      "an authorised-pending session (a reference the customer sees)",
      {
        status: "pending_authorization",
        orderId: "order_1",
        completionStarted: true,
        updatedAt: ago(10 * RESUME_AFTER_MS),
      },
      false,
    ],
    [
      "a pending session a store request created on a placed order's collection (no cart completion started it)",
      { status: "pending", orderId: "order_1", completionStarted: false, updatedAt: ago(10 * RESUME_AFTER_MS) },
      false,
    ],
    [
      "a captured one",
      { status: "authorized", orderId: "order_1", completionStarted: true, updatedAt: ago(10 * RESUME_AFTER_MS) },
      false,
    ],
  ])("%s", (_name, session, expected) => {
    expect(isInterruptedCompletion(session, NOW)).toBe(expected)
  })
})
