"""A Swift file as the availability gate (scripts/check-availability.py) reads it: which of its
code Apple platforms compile (`#if` evaluated as on an Apple platform), and which availability
guards cover a position (`if #available`, `guard #available`, `@available` on a declaration).

A scanner, not a parser: comments and string literals are blanked first (keeping every byte's
position), then braces are matched. Columns are bytes, as the index store counts them.
"""

import re

# What an Apple platform has, for `#if canImport(...)` and `#if os(...)`: False for what none has;
# a name not listed is unknown (either branch may be compiled, so both are checked).
APPLE_OS = {"macOS", "iOS", "tvOS", "watchOS", "visionOS", "xrOS", "macCatalyst"}
NOT_APPLE_OS = {"Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku", "none"}
APPLE_MODULES = {"Darwin", "os", "ObjectiveC", "Network", "Foundation", "Dispatch", "Observation", "Combine"}
NOT_APPLE_MODULES = {"Glibc", "Musl", "Bionic", "Android", "WinSDK", "CRT", "WASILibc", "FoundationNetworking"}
# An `unavailable` declaration is never used on that platform: it covers any version.
NEVER = (1 << 30, 0, 0)


def padded(parts):
    """A version as (major, minor, patch), so that 15 and 15.0 compare equal."""
    parts = tuple(parts)[:3]
    return parts + (0,) * (3 - len(parts))


def _blank(text):
    """`text` with comments and string literals replaced by spaces (newlines kept)."""
    out, i, n = list(text), 0, len(text)

    def wipe(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            wipe(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            j = i + hashes
            quote = '"""' if text.startswith('"""', j) else '"'
            close = quote + "#" * hashes
            j += len(quote)
            while j < n and not text.startswith(close, j):
                j += 2 if (text[j] == "\\" and not hashes) else 1
            j = min(n, j + len(close))
            wipe(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


def _condition(expression):
    """An `#if` condition as an Apple platform sees it: True, False or None (unknown)."""
    tokens = re.findall(r"\w+\s*\([^)]*\)|&&|\|\||!|\(|\)|\w+", expression)
    position = 0

    def advance():
        nonlocal position
        position += 1

    def atom():
        nonlocal position
        token = tokens[position] if position < len(tokens) else ""
        position += 1
        if token == "!":
            value = atom()
            return None if value is None else not value
        if token == "(":
            value = either()
            position += 1  # ")"
            return value
        call = re.match(r"(\w+)\s*\(\s*([^)]*?)\s*\)", token)
        if call:
            name, argument = call.groups()
            if name == "os":
                return True if argument in APPLE_OS else False if argument in NOT_APPLE_OS else None
            if name == "canImport":
                module = argument.split(",")[0].strip()
                return True if module in APPLE_MODULES else False if module in NOT_APPLE_MODULES else None
        return None

    def chain(operator, operand, decisive):
        """Operands joined by `operator` (`&&`, whose decisive value is False; `||`, True), in
        three-valued logic: decided by one decisive operand, unknown if any is, else the other."""
        value = operand()
        while position < len(tokens) and tokens[position] == operator:
            advance()
            right = operand()
            value = decisive if decisive in (value, right) else (None if None in (value, right) else not decisive)
        return value

    def both():
        return chain("&&", atom, False)

    def either():
        return chain("||", both, True)

    return either()


def _versions(arguments):
    """{platform: version} of `macOS 15.0, iOS 18, *` or of `iOS, unavailable`/`iOS, introduced: 18`."""
    result = {}
    parts = [part.strip() for part in arguments.split(",")]
    for part in parts:
        match = re.match(r"(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)\s+([0-9][0-9.]*)$", part)
        if match:
            result[match.group(1)] = padded(int(x) for x in match.group(2).split("."))
    if parts and re.match(r"(macOS|iOS|tvOS|watchOS|visionOS)$", parts[0]):
        for part in parts[1:]:
            if part == "unavailable":
                result[parts[0]] = NEVER
            introduced = re.match(r"introduced\s*:\s*([0-9][0-9.]*)$", part)
            if introduced:
                result[parts[0]] = padded(int(x) for x in introduced.group(1).split("."))
    return result


class Source:
    def __init__(self, text):
        self.text = _blank(text)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self._match_braces()
        self._apple_lines()
        self._guards()

    def offset(self, line, column):
        return self.line_starts[line - 1] + column - 1

    def _match_braces(self):
        self.closing, stack = {}, []
        for i, c in enumerate(self.text):
            if c == "{":
                stack.append(i)
            elif c == "}" and stack:
                self.closing[stack.pop()] = i
        self.blocks = sorted(self.closing.items())

    def _block_after(self, start):
        """The first `{ ... }` opening after `start`, with `(...)` skipped: (open, close) or None."""
        depth = 0
        for i in range(start, len(self.text)):
            c = self.text[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth <= 0:
                return i, self.closing.get(i, len(self.text))
            elif c == "}" and depth <= 0:
                return None
        return None

    def _enclosing_end(self, position):
        ends = [close for open_, close in self.blocks if open_ < position < close]
        return min(ends) if ends else len(self.text)

    def _apple_lines(self):
        """For each line, whether an Apple platform compiles it."""
        self.compiled = []
        stack = []  # [(this branch compiled, an earlier branch surely taken)]
        for line in self.text.split("\n"):
            directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
            if directive:
                kind, rest = directive.groups()
                if kind == "if":
                    value = _condition(rest)
                    stack.append((value is not False, value is True))
                elif kind == "elseif" and stack:
                    taken = stack[-1][1]
                    value = _condition(rest)
                    stack[-1] = (not taken and value is not False, taken or value is True)
                elif kind == "else" and stack:
                    stack[-1] = (not stack[-1][1], True)
                elif kind == "endif" and stack:
                    stack.pop()
                self.compiled.append(False)
                continue
            self.compiled.append(all(compiled for compiled, _ in stack))

    def _guards(self):
        self.regions = []  # (start, end, {platform: version})
        for match in re.finditer(r"(#available|@available)\s*\(", self.text):
            close = self.text.find(")", match.end())
            if close < 0:
                continue
            versions = _versions(self.text[match.end() : close])
            if not versions:
                continue
            if match.group(1) == "@available":
                block = self._block_after(close + 1)
                end = block[1] if block else self._enclosing_end(match.start())
                self.regions.append((match.start(), end, versions))
                continue
            statement = max(self.text.rfind(c, 0, match.start()) for c in "{};\n")
            if re.search(r"\bguard\b", self.text[statement + 1 : match.start()]):
                otherwise = self._block_after(close + 1)
                if otherwise:
                    self.regions.append((otherwise[1], self._enclosing_end(match.start()), versions))
            else:
                then = self._block_after(close + 1)
                if then:
                    self.regions.append((then[0], then[1], versions))

    def compiled_on_apple(self, line, column):
        return line - 1 < len(self.compiled) and self.compiled[line - 1]

    def guarded_versions(self, line, column):
        """{platform: version} that the guards around this position ensure."""
        position, result = self.offset(line, column), {}
        for start, end, versions in self.regions:
            if start <= position <= end:
                for platform, version in versions.items():
                    result[platform] = max(result.get(platform, (0, 0, 0)), version)
        return result
