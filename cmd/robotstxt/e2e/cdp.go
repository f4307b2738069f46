// Package e2e tests the page of "robotstxt serve" in headless Chromium.
// It is a module of its own so that nothing it needs reaches the library's
// go.mod; it needs nothing but the standard library, as it drives Chromium
// through the DevTools protocol over the pipe that --remote-debugging-pipe
// opens (file descriptors 3 and 4, one JSON message per NUL-terminated
// chunk).
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// browser is a running Chromium driven over its DevTools pipe.
type browser struct {
	cmd *exec.Cmd
	in  io.WriteCloser // Chromium reads commands from it
	out *bufio.Reader  // and writes answers and events to it

	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
	readErr error
	done    chan struct{} // closed when the reader stops
	// consoleErrors holds, by session, the errors its page reported
	// (see consoleError), once the page has asked for them (watch).
	consoleErrors map[string][]string
}

// message is a DevTools protocol message: a command's answer (ID set) or an
// event (Method set).
type message struct {
	ID        int             `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// startBrowser starts Chromium with a fresh profile in dir. Its own output
// goes to log.
func startBrowser(path, dir string, log io.Writer) (*browser, error) {
	cmdIn, toChrome, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromChrome, cmdOut, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
		"--user-data-dir="+dir, "--remote-debugging-pipe", "--window-size=1280,900", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdIn, cmdOut} // descriptors 3 and 4
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cmdIn.Close()
	cmdOut.Close()
	b := &browser{
		cmd: cmd, in: toChrome, out: bufio.NewReader(fromChrome),
		pending: map[int]chan message{}, done: make(chan struct{}),
	}
	go b.read()
	return b, nil
}

// read dispatches answers to the commands waiting for them; of the
// events, it keeps the errors of pages that watch for them (see
// consoleError) and drops the rest, as the tests poll the page instead.
func (b *browser) read() {
	defer close(b.done)
	for {
		chunk, err := b.out.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			b.mu.Unlock()
			return
		}
		var m message
		if err := json.Unmarshal(chunk[:len(chunk)-1], &m); err != nil {
			continue
		}
		if m.ID == 0 {
			if e := consoleError(m); e != "" {
				b.mu.Lock()
				if errs, ok := b.consoleErrors[m.SessionID]; ok {
					b.consoleErrors[m.SessionID] = append(errs, e)
				}
				b.mu.Unlock()
			}
			continue
		}
		b.mu.Lock()
		ch := b.pending[m.ID]
		delete(b.pending, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// call sends a command to the browser (session "") or to a page's session
// and decodes its result into result, when not nil.
func (b *browser) call(ctx context.Context, session, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan message, 1)
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return fmt.Errorf("%s: browser gone: %w", method, b.readErr)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: p})
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: browser gone: %w", method, b.readErr)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close asks Chromium to quit, and kills it if it does not.
func (b *browser) close() error {
	go b.call(context.Background(), "", "Browser.close", nil, nil)
	waited := make(chan error, 1)
	go func() { waited <- b.cmd.Wait() }()
	defer b.in.Close()
	select {
	case err := <-waited:
		return err
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-waited
		return errors.New("chromium did not quit; killed")
	}
}

// consoleError returns the text of an error that event m reports, as
// DevTools' console would show it: an exception not caught, a
// console.error call, or the browser's own error entries (a resource
// that failed to load, a Content-Security-Policy violation); "" for
// another event.
func consoleError(m message) string {
	var p struct {
		Type string `json:"type"`
		Args []struct {
			Value       any    `json:"value"`
			Description string `json:"description"`
		} `json:"args"`
		ExceptionDetails struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
		Entry struct {
			Level, Text, URL string
		} `json:"entry"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return ""
	}
	switch {
	case m.Method == "Runtime.exceptionThrown":
		return p.ExceptionDetails.Text + " " + p.ExceptionDetails.Exception.Description
	case m.Method == "Runtime.consoleAPICalled" && (p.Type == "error" || p.Type == "assert"):
		out := "console." + p.Type + ":"
		for _, a := range p.Args {
			out += fmt.Sprintf(" %v%s", a.Value, a.Description)
		}
		return out
	case m.Method == "Log.entryAdded" && p.Entry.Level == "error":
		return p.Entry.Text + " " + p.Entry.URL
	}
	return ""
}

// watch starts keeping the errors the page reports; errors returns them.
func (p *page) watch(ctx context.Context) error {
	p.b.mu.Lock()
	if p.b.consoleErrors == nil {
		p.b.consoleErrors = map[string][]string{}
	}
	p.b.consoleErrors[p.session] = []string{}
	p.b.mu.Unlock()
	if err := p.call(ctx, "Runtime.enable", nil, nil); err != nil {
		return err
	}
	return p.call(ctx, "Log.enable", nil, nil)
}

// errors returns the errors the page reported since watch.
func (p *page) errors() []string {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	return append([]string(nil), p.b.consoleErrors[p.session]...)
}

// page is a browser tab, driven through its session.
type page struct {
	b       *browser
	session string
}

// newPage opens a tab of the given size.
func (b *browser) newPage(ctx context.Context, width, height int) (*page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	p := &page{b: b, session: attached.SessionID}
	if err := p.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// close closes the tab.
func (p *page) close(ctx context.Context) error {
	var info struct {
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	if err := p.call(ctx, "Target.getTargetInfo", nil, &info); err != nil {
		return err
	}
	return p.b.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": info.TargetInfo.TargetID}, nil)
}

// front brings the tab to the front: Chromium delays input and timers in
// tabs behind others.
func (p *page) front(ctx context.Context) error {
	return p.call(ctx, "Page.bringToFront", nil, nil)
}

func (p *page) call(ctx context.Context, method string, params, result any) error {
	return p.b.call(ctx, p.session, method, params, result)
}

func (p *page) navigate(ctx context.Context, url string) error {
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigating to %s: %s", url, nav.ErrorText)
	}
	return nil
}

// eval evaluates a JavaScript expression in the page, awaiting a promise,
// and decodes its value into result, when not nil.
func (p *page) eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("evaluating %q: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if result != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, result)
	}
	return nil
}

// waitFor polls expr until it is true.
func (p *page) waitFor(ctx context.Context, expr string) error {
	for {
		var ok bool
		err := p.eval(ctx, expr, &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last error: %v)", expr, ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// center returns the middle of the element that selector finds, in the
// viewport, after scrolling it into view.
func (p *page) center(ctx context.Context, selector string) (x, y float64, err error) {
	var pt struct{ X, Y float64 }
	err = p.eval(ctx, fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) throw new Error("no element " + %q);
		e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2};
	})()`, selector, selector), &pt)
	return pt.X, pt.Y, err
}

// click clicks the element that selector finds with the mouse.
func (p *page) click(ctx context.Context, selector string) error {
	x, y, err := p.center(ctx, selector)
	if err != nil {
		return err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}
		if typ == "mouseMoved" {
			ev["button"] = "none"
		}
		if err := p.call(ctx, "Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// replaceText clicks into the text field that selector finds, selects what
// it holds and puts text in its place, as pasting does.
func (p *page) replaceText(ctx context.Context, selector, text string) error {
	if err := p.click(ctx, selector); err != nil {
		return err
	}
	if err := p.eval(ctx, fmt.Sprintf(`document.querySelector(%q).select()`, selector), nil); err != nil {
		return err
	}
	return p.call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// screenshot returns a PNG of the whole page.
func (p *page) screenshot(ctx context.Context) ([]byte, error) {
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
	return shot.Data, err
}

// keyCodes are the Windows virtual key codes of the keys press knows.
var keyCodes = map[string]int{
	"Tab": 9, "Enter": 13, "End": 35, "Home": 36, "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "F8": 119,
}

// press presses and releases key on the element that has the focus, as a
// keyboard does, with shift held when shift is set.
func (p *page) press(ctx context.Context, key string, shift bool) error {
	code, ok := keyCodes[key]
	if !ok {
		return fmt.Errorf("press: unknown key %q", key)
	}
	mods := 0
	if shift {
		mods = 8
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		ev := map[string]any{"type": typ, "key": key, "code": key, "windowsVirtualKeyCode": code, "modifiers": mods}
		if err := p.call(ctx, "Input.dispatchKeyEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}
