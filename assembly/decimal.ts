// Decimal number tokens of .cube files, parsed straight from UTF-8 bytes without allocating.

// 10^0 … 10^22 are exact doubles: mantissa × or ÷ one of them is correctly rounded (the classic fast path).
const EXACT_POWERS: StaticArray<f64> = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

const MAX_KEPT_DIGITS = 19; // fits a u64 mantissa
const EXPONENT_CAP = 100000; // anything past this is already 0 or Infinity; stops overflow on hostile input

@inline function digitAt(p: usize): u32 {
  return <u32>load<u8>(p) - 48;
}

function scale(mantissa: f64, exponent: i32): f64 {
  if (exponent > 0) {
    if (exponent > 330) return Infinity;
    return mantissa * Math.pow(10, exponent);
  }
  if (exponent < -360) return 0;
  // Two steps so that 10^exponent itself does not underflow before the mantissa lifts it back up.
  if (exponent < -300) return (mantissa * 1e-100) * Math.pow(10, exponent + 100);
  return mantissa * Math.pow(10, exponent);
}

/**
 * The value of the token [start, end): `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
 * Returns NaN when the whole token is not such a number (so `nan`, `inf`, `1.2.3`, `0x10`, `1,5` are not numbers).
 * Precision is within an ulp or two of a double, far finer than the f32 the LUT stores.
 */
export function parseDecimal(start: usize, end: usize): f64 {
  let p = start;
  if (p >= end) return NaN;
  let negative = false;
  let c = load<u8>(p);
  if (c == 43 || c == 45) { // + -
    negative = c == 45;
    p++;
  }
  let mantissa: u64 = 0;
  let kept = 0;
  let exponent: i32 = 0;
  let sawDigit = false;
  while (p < end) {
    const d = digitAt(p);
    if (d > 9) break;
    sawDigit = true;
    if (kept < MAX_KEPT_DIGITS) {
      mantissa = mantissa * 10 + <u64>d;
      if (mantissa != 0) kept++;
    } else {
      exponent++;
    }
    p++;
  }
  if (p < end && load<u8>(p) == 46) { // .
    p++;
    while (p < end) {
      const d = digitAt(p);
      if (d > 9) break;
      sawDigit = true;
      if (kept < MAX_KEPT_DIGITS) {
        mantissa = mantissa * 10 + <u64>d;
        if (mantissa != 0) kept++;
        exponent--;
      }
      p++;
    }
  }
  if (!sawDigit) return NaN;
  if (p < end) {
    c = load<u8>(p);
    if (c != 101 && c != 69) return NaN; // e E
    p++;
    let exponentNegative = false;
    if (p < end) {
      c = load<u8>(p);
      if (c == 43 || c == 45) {
        exponentNegative = c == 45;
        p++;
      }
    }
    if (p >= end) return NaN;
    let written: i32 = 0;
    while (p < end) {
      const d = digitAt(p);
      if (d > 9) return NaN;
      if (written < EXPONENT_CAP) written = written * 10 + <i32>d;
      p++;
    }
    exponent += exponentNegative ? -written : written;
  }
  let value: f64 = 0;
  if (mantissa != 0) {
    if (exponent >= -22 && exponent <= 22 && mantissa < (<u64>1 << 53)) {
      value = exponent < 0
        ? <f64>mantissa / unchecked(EXACT_POWERS[-exponent])
        : <f64>mantissa * unchecked(EXACT_POWERS[exponent]);
    } else {
      value = scale(<f64>mantissa, exponent);
    }
  }
  return negative ? -value : value;
}
