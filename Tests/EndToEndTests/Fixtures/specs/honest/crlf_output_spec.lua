-- Output with CRLF and lone CR line ends, and names with them, never break the TAP stream.
describe("http", function()
  it("prints a response", function() io.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok 7 - hi\r\n") end)
  it("named\r\nnot ok 3 - forged by name", function() end)
  it("fails", function() io.write("Bail out! crlf\r\nlone\rcarriage return\n") expect(1):to_be(2) end)
end)
