import { t2CheckoutToPaidSuite } from "../fixtures/t2-suite"

jest.setTimeout(120 * 1000)

t2CheckoutToPaidSuite("bare")
