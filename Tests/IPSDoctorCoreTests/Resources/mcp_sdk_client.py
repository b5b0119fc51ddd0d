"""A real MCP client for `ips-doctor mcp`: the official Python SDK (`pip install mcp`).

Usage: mcp_sdk_client.py <ips-doctor executable> <repository root>
Prints one line per check and `ok` at the end; exits 1 on the first check that fails.
"""

import asyncio
import os
import sys
import urllib.parse

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


def field(value, snake, camel):
    """A result's field: SDK 2 names them in snake case, SDK 1 as the protocol does."""
    return getattr(value, snake) if hasattr(value, snake) else getattr(value, camel)


def check(condition, message):
    if not condition:
        print("FAILED: " + message)
        sys.exit(1)


async def main(executable, root):
    server = StdioServerParameters(command=executable, args=["mcp"], cwd=root)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            check(field(initialized, "server_info", "serverInfo").name == "ips-doctor", "server name")
            print("protocol: " + str(field(initialized, "protocol_version", "protocolVersion")))

            tools = await session.list_tools()
            names = sorted(tool.name for tool in tools.tools)
            check(
                names == sorted(["diagnose", "triage", "symbolicate", "check_source", "explain_rule", "list_rules"]),
                "tools: %s" % names,
            )
            print("tools: " + ", ".join(names))

            result = await session.call_tool(
                "diagnose", {"path": "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"}
            )
            check(not field(result, "is_error", "isError"), "diagnose failed: %s" % result.content)
            rule = field(result, "structured_content", "structuredContent")["diagnoses"][0]["rule"]
            print("diagnose: " + rule)
            check(rule == "async-bridge-completion-off-main", "diagnose rule " + rule)

            result = await session.call_tool("triage", {"paths": ["Fixtures/reports"], "top": 3})
            check(not field(result, "is_error", "isError"), "triage failed: %s" % result.content)
            groups = field(result, "structured_content", "structuredContent")["groups"]
            check(len(groups) > 0, "triage found no group")
            check(len(field(result, "structured_content", "structuredContent")["topDiagnoses"]) == 3, "triage top diagnoses")
            print("triage: %d groups" % len(groups))

            result = await session.call_tool(
                "check_source", {"paths": ["Fixtures/swift/founding-crash-plain-class.swift"]}
            )
            check(not field(result, "is_error", "isError"), "check_source failed: %s" % result.content)
            findings = field(result, "structured_content", "structuredContent")["findings"]
            check(len(findings) > 0, "check_source found nothing")
            print("check_source: %d findings, first at line %d" % (len(findings), findings[0]["line"]))

            result = await session.call_tool("diagnose", {"path": "Fixtures/reports/not-there.ips"})
            check(field(result, "is_error", "isError"), "a missing report is a tool error")

    # A client with roots: the server asks for them and reads nothing outside.
    reports = os.path.realpath(os.path.join(root, "Fixtures", "reports"))

    async def list_roots(context):
        uri = "file://" + urllib.parse.quote(reports)
        return types.ListRootsResult(roots=[types.Root(uri=uri, name="reports")])

    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as session:
            await session.initialize()
            result = await session.call_tool(
                "diagnose", {"path": "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"}
            )
            check(not field(result, "is_error", "isError"), "diagnose inside the roots: %s" % result.content)
            result = await session.call_tool("check_source", {"paths": ["Fixtures/swift"]})
            check(field(result, "is_error", "isError"), "check_source outside the roots must be refused")
            print("roots: " + result.content[0].text)
    print("ok")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
