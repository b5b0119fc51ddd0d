# Homebrew formula for ips-doctor: builds from source with the repository's Makefile, which runs
# `swift build -c release` and installs the stripped binary, its manual page and its completions.
#
#   brew tap OWNER/ips-doctor https://github.com/OWNER/ips-doctor   # this repository as a tap
#   brew install --HEAD ips-doctor
#
# Untested on macOS until a Mac runs it; `ruby -c` checks its syntax (FormulaTests).
class IpsDoctor < Formula
  desc "Diagnose Apple crash reports (.ips, .crash): why the app crashed and how to fix it"
  homepage "https://github.com/OWNER/ips-doctor"
  head "https://github.com/OWNER/ips-doctor.git", branch: "main"

  # The repository has not chosen a licence yet; this says so until it does.
  license :cannot_represent

  # Swift 6.0 or later, so Xcode 16 or later; the package needs macOS 15 (Package.swift).
  depends_on xcode: ["16.0", :build]
  depends_on macos: :sequoia

  def install
    # SwiftPM's own sandbox cannot start inside Homebrew's build sandbox.
    system "make", "install", "PREFIX=#{prefix}", "SWIFT_BUILD_FLAGS=--disable-sandbox"
    # A report the test diagnoses: the crash that started the project.
    pkgshare.install "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"
  end

  test do
    assert_match(/\d+\.\d+\.\d+/, shell_output("#{bin}/ips-doctor --version"))
    report = pkgshare/"async-bridge-didreceive-simplified-symbols.ips"
    output = shell_output("#{bin}/ips-doctor #{report}", 1)
    assert_match "async-bridge-completion-off-main", output
  end
end
