import { randomInt } from "node:crypto"

/**
 * Entity and reference numbers. References are 9 digits, unique, and every other one starts with "0" so a
 * client that turns them into numbers (and drops the zero) fails at once instead of one time in ten.
 */
export class ReferenceIssuer {
  private readonly used = new Set<string>()
  private issued = 0
  private override?: { entity?: string; reference: string }

  /** POST /__sandbox/next-reference: the next creation returns exactly these. */
  setNext(reference: string, entity?: string): void {
    this.override = entity === undefined ? { reference } : { entity, reference }
  }

  isUsed(reference: string): boolean {
    return this.used.has(reference)
  }

  next(defaultEntity: string): { entity: string; reference: string } {
    const override = this.override
    this.override = undefined
    const reference = override?.reference ?? this.fresh()
    this.used.add(reference)
    this.issued++
    return { entity: override?.entity ?? defaultEntity, reference }
  }

  /** Every reference issued since start-up (or reset), for the state file. */
  issuedReferences(): string[] {
    return [...this.used]
  }

  /** After loading a state file: those references stay taken, and the leading-zero alternation goes on. */
  restore(references: readonly string[]): void {
    for (const reference of references) this.used.add(reference)
    this.issued += references.length
  }

  reset(): void {
    this.used.clear()
    this.issued = 0
    this.override = undefined
  }

  private fresh(): string {
    for (;;) {
      const lead = this.issued % 2 === 0 ? 0 : randomInt(1, 10)
      const candidate = `${lead}${randomInt(0, 100_000_000).toString().padStart(8, "0")}`
      if (!this.used.has(candidate)) return candidate
    }
  }
}
