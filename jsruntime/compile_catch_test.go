package jsruntime

import "testing"

func TestRewriteBundleCatches(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"named binding", "try { f(); } catch (e) { g(e); }", "try { f(); } catch (e) {__pi_v8error(e); g(e); }"},
		{"nested and on one line", "try { try {} catch (a) {} } catch (b) {}", "try { try {} catch (a) {__pi_v8error(a);} } catch (b) {__pi_v8error(b);}"},
		{"inside var-declared functions, once", "var f = function () { var g = function () { try {} catch (e) {} }; };", "var f = function () { var g = function () { try {} catch (e) {__pi_v8error(e);} }; };"},
		{"no binding", "try { f(); } catch { g(); }", "try { f(); } catch { g(); }"},
		{"pattern binding", "try { f(); } catch ({ message }) { g(message); }", "try { f(); } catch ({ message }) { g(message); }"},
		{"catch in a string", `const s = "try {} catch (e) {}";`, `const s = "try {} catch (e) {}";`},
		{"with a regex literal", "try {} catch (e) { /[\\p{ASCII}]/u.test(e); }", "try {} catch (e) {__pi_v8error(e); /[\\u{0}-\\u{7F}]/u.test(e); }"},
		{"unparsable", "try {} catch (e) { )( }", "try {} catch (e) { )( }"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := rewriteBundle(c.in); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
