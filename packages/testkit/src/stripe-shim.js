/* global window, document */
/**
 * A stand-in for Stripe.js for browser tests, served in place of `https://js.stripe.com/**`
 * (Playwright's `page.route`). It defines `window.Stripe(publishableKey)` with what
 * `@stripe/react-stripe-js` v7 and `@stripe/stripe-js` v10 call:
 *
 * - `elements(options)` → `{ create(type, options), getElement(type), update(options), submit() }`;
 *   `create` gives `{ mount, unmount, destroy, on, off, update, focus, blur, clear }`. A mounted
 *   element draws a plain fake card box and fires `ready`, then `change` (complete), as Stripe's
 *   elements do.
 * - `confirmPayment({ elements, confirmParams, redirect })` POSTs, form-encoded, to
 *   `${window.__FAKE_STRIPE_URL__}/v1/payment_intents/<id>/confirm` with `client_secret`, `key`
 *   (the publishable key) and `payment_method` (`pm_card_visa`, or
 *   `window.__FAKE_STRIPE_PAYMENT_METHOD__`, e.g. `pm_card_chargeDeclined`), like Stripe.js does,
 *   and resolves `{ paymentIntent }` or `{ error: { type, code, message } }`; it never redirects.
 * - `createToken`, `createPaymentMethod` and `confirmCardPayment` exist because
 *   react-stripe-js checks for them; they answer with an error.
 *
 * `Stripe.version` is the release train `@stripe/stripe-js` v10 expects, so it logs no warning.
 */
(function installStripeShim() {
  'use strict';

  /** The Stripe.js release train `@stripe/stripe-js` v10 loads. */
  var RELEASE_TRAIN = 'endive';

  function unsupported(name) {
    return Promise.resolve({
      error: { type: 'invalid_request_error', message: name + ' is not supported by the shim.' },
    });
  }

  /** The intent id is the part of the client secret before `_secret_`. */
  function intentIdOf(clientSecret) {
    var at = clientSecret.indexOf('_secret_');
    return at > 0 ? clientSecret.slice(0, at) : clientSecret;
  }

  function createElement(type, group) {
    var listeners = {};
    var node = null;

    function emit(event, payload) {
      (listeners[event] || []).slice().forEach(function (handler) {
        handler(payload);
      });
    }

    var element = {
      mount: function (target) {
        var host = typeof target === 'string' ? document.querySelector(target) : target;
        node = document.createElement('div');
        node.setAttribute('data-testid', 'fake-stripe-' + type);
        node.style.cssText =
          'border:1px solid #cbd5e1;border-radius:8px;padding:12px;font:14px system-ui;color:#334155';
        node.textContent = 'Test card 4242 4242 4242 4242 · 12/34 · 123 (Stripe.js shim)';
        host.appendChild(node);
        setTimeout(function () {
          emit('ready', { elementType: type });
          emit('change', {
            elementType: type,
            empty: false,
            complete: true,
            value: { type: 'card' },
          });
        }, 0);
      },
      unmount: function () {
        if (node && node.parentNode) node.parentNode.removeChild(node);
        node = null;
      },
      destroy: function () {
        element.unmount();
        listeners = {};
        delete group.elements[type];
      },
      on: function (event, handler) {
        (listeners[event] = listeners[event] || []).push(handler);
        return element;
      },
      off: function (event, handler) {
        listeners[event] = (listeners[event] || []).filter(function (h) {
          return h !== handler;
        });
        return element;
      },
      update: function () {
        return element;
      },
      focus: function () {},
      blur: function () {},
      clear: function () {},
    };
    return element;
  }

  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || publishableKey === '') {
      throw new Error('Stripe shim: a publishable key is required.');
    }
    /** Elements groups by object, so confirmPayment can find the client secret. */
    var groups = new WeakMap();

    function elements(options) {
      var group = { options: Object.assign({}, options), elements: {} };
      var api = {
        create: function (type) {
          var element = createElement(type, group);
          group.elements[type] = element;
          return element;
        },
        getElement: function (type) {
          return group.elements[type] || null;
        },
        update: function (updates) {
          Object.assign(group.options, updates);
        },
        submit: function () {
          return Promise.resolve({});
        },
      };
      groups.set(api, group);
      return api;
    }

    function confirmPayment(params) {
      var group = params && groups.get(params.elements);
      var clientSecret = group && group.options.clientSecret;
      if (!clientSecret) {
        return Promise.resolve({
          error: { type: 'invalid_request_error', message: 'Stripe shim: no client secret.' },
        });
      }
      var body = new URLSearchParams({
        client_secret: clientSecret,
        key: publishableKey,
        payment_method: window.__FAKE_STRIPE_PAYMENT_METHOD__ || 'pm_card_visa',
      });
      var url =
        window.__FAKE_STRIPE_URL__ +
        '/v1/payment_intents/' +
        encodeURIComponent(intentIdOf(clientSecret)) +
        '/confirm';
      return fetch(url, { method: 'POST', body: body })
        .then(function (response) {
          return response.json().then(function (json) {
            if (!response.ok || json.error) {
              var error = json.error || {};
              return {
                error: {
                  type: error.type || 'api_error',
                  code: error.code,
                  decline_code: error.decline_code,
                  message: error.message || 'Request failed with status ' + response.status,
                },
              };
            }
            return { paymentIntent: json };
          });
        })
        .catch(function (cause) {
          return {
            error: {
              type: 'api_connection_error',
              message: String((cause && cause.message) || cause),
            },
          };
        });
    }

    return {
      elements: elements,
      confirmPayment: confirmPayment,
      createToken: function () {
        return unsupported('createToken');
      },
      createPaymentMethod: function () {
        return unsupported('createPaymentMethod');
      },
      confirmCardPayment: function () {
        return unsupported('confirmCardPayment');
      },
      registerAppInfo: function () {},
      _registerWrapper: function () {},
    };
  }

  Stripe.version = RELEASE_TRAIN;
  window.Stripe = Stripe;
})();
