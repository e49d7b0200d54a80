package pack

import "testing"

func TestDeclaredName(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string
		unit bool // opens a unit an excerpt places a hunk in
	}{
		// as the neighbour search reads declarations
		{"func (c *Client) Do(req *Request) error {", "Do", true},
		{"    def handle(self, request):", "handle", true},
		{"export function create_client(app, target) {", "create_client", true},
		// TypeScript types and ambient declarations
		{"export type Load<", "Load", true},
		{"export type ParamValue = string | number;", "ParamValue", true},
		{"type Handler = (c: Context) => void", "Handler", true},
		{"declare module '$app/paths' {", "$app/paths", true},
		{"declare namespace App {", "App", true},
		{"export declare type Env = {", "Env", true},
		// methods that open their body on their line
		{"\tasync load({ params }) {", "load", true},
		{"  static get url() {", "url", true},
		{"  #resolve(id) {", "resolve", true},
		{"  constructor(private readonly app: App) {", "constructor", true},
		{"  fetch(input: Request): Promise<Response> {", "fetch", true},
		{"  map<T>(fn: (v: V) => T) {", "", false}, // an arrow type in its parameters reads as a callback
		{"    public String join(List<String> parts) {", "join", true},
		{"    public static void main(String[] args) throws Exception {", "main", true},
		{"static int parse_line(const char *s) {", "parse_line", true},
		{"  size_t size() const {", "size", true},
		// statements and calls are not
		{"    if (ready) {", "", false},
		{"  } else if (x > 1) {", "", false},
		{"  } catch (err) {", "", false},
		{"    for (const x of xs) {", "", false},
		{"    while (true) {", "", false},
		{"    switch (kind) {", "", false},
		{"    return new Promise((resolve) => {", "", false},
		{"    items.forEach((item) => {", "", false},
		{"    app.get('/x', function (req, res) {", "", false},
		{"    promise.then(function (v) {", "", false},
		{"export default defineConfig({", "", false},
		{"    createServer(options, {", "", false},
		{"    const x = compute(a) {", "x", true},
		{"    x = compute(a) {", "", false},
		{"    load(event);", "", false},
		{"    new Foo(bar) {", "", false},
		{"", "", false},
		// blocks of tests
		{"test.describe('Assets', () => {", "", true},
		{"  describe(\"router\", function () {", "", true},
		{"  it(`works`, async () => {", "", true},
		{"  test('parses', () => expect(x).toBe(1));", "", false},
		{"  other('parses', () => {", "", false},
	} {
		if got := declaredName(tc.line); got != tc.want {
			t.Errorf("declaredName(%q) = %q, want %q", tc.line, got, tc.want)
		}
		if got := opensUnit(tc.line); got != tc.unit {
			t.Errorf("opensUnit(%q) = %v, want %v", tc.line, got, tc.unit)
		}
	}
}
