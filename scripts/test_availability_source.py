#!/usr/bin/env python3
"""Checks of the availability gate's reading of Swift sources (scripts/availability_source.py):
which lines an Apple platform compiles, and which guards cover a position. Run by `make check`
before the gate itself."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from availability_source import NEVER, Source  # noqa: E402

SAMPLE = '''\
import Foundation
#if canImport(os)
let apple = 1
#elseif canImport(Glibc)
let linux = 2
#else
let other = 3
#endif
#if !canImport(os)
let notApple = 4
#endif
#if canImport(Custom) && os(Linux)
let never = 5
#endif
#if DEBUG
let maybe = 6
#endif
func f() {
    if #available(macOS 15.0, iOS 18, *) {
        let guarded = 20
    } else {
        let fallback = 22
    }
    let text = "if #available(macOS 99, *) { }"  // #available(macOS 99, *) {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
        return
    }
    let afterGuard = 28
}
let outside = 30
@available(macOS 15.0, iOS 18.0, *)
struct New {
    func g() { let inNew = 33 }
}
@available(iOS, unavailable)
func h() { let notOnIOS = 36 }
'''


class SourceTests(unittest.TestCase):
    def setUp(self):
        self.source = Source(SAMPLE)

    def compiled(self, line):
        return self.source.compiled_on_apple(line, 5)

    def test_branches_an_apple_platform_compiles(self):
        self.assertTrue(self.compiled(3))
        self.assertFalse(self.compiled(5))  # canImport(Glibc)
        self.assertFalse(self.compiled(7))  # #else after a branch Apple platforms take
        self.assertFalse(self.compiled(10))  # !canImport(os)
        self.assertFalse(self.compiled(13))  # unknown && false
        self.assertTrue(self.compiled(16))  # unknown: either branch may be compiled

    def test_if_available_covers_its_block_only(self):
        self.assertEqual(self.source.guarded_versions(20, 13), {"macOS": (15, 0, 0), "iOS": (18, 0, 0)})
        self.assertEqual(self.source.guarded_versions(22, 13), {})
        self.assertEqual(self.source.guarded_versions(30, 5), {})

    def test_guard_available_covers_the_rest_of_its_scope(self):
        self.assertEqual(self.source.guarded_versions(28, 9)["visionOS"], (2, 0, 0))
        self.assertEqual(self.source.guarded_versions(30, 5), {})

    def test_strings_and_comments_are_not_guards(self):
        self.assertEqual(self.source.guarded_versions(24, 9), {})

    def test_available_attribute_covers_its_declaration(self):
        self.assertEqual(self.source.guarded_versions(33, 20), {"macOS": (15, 0, 0), "iOS": (18, 0, 0)})
        self.assertEqual(self.source.guarded_versions(36, 12), {"iOS": NEVER})


if __name__ == "__main__":
    unittest.main(verbosity=1)
