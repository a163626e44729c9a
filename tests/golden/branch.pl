% ---- sign

% entry executes line 2
sign([X],[R],H0,Hout,E,sign(1,[T1])) :-
    X #> 0,
    sign_then1([],[R],H0,Hout,E,T1).
sign([X],[R],H0,Hout,E,sign(2,[T1])) :-
    X #=< 0,
    sign_else3([X],[R],H0,Hout,E,T1).

sign_then1([],[R],H0,H0,ok,sign_then1(1,[])) :-
    R #= 1.   % line 3

sign_join2([],[R],H0,H0,ok,sign_join2(1,[])) :-
    R #= 0.   % line 6

% entry executes line 4
sign_else3([X],[R],H0,Hout,E,sign_else3(1,[T1])) :-
    X #< 0,
    sign_then4([],[R],H0,Hout,E,T1).
sign_else3([X],[R],H0,Hout,E,sign_else3(2,[T1])) :-
    X #>= 0,
    sign_join5([],[R],H0,Hout,E,T1).

sign_then4([],[R],H0,H0,ok,sign_then4(1,[])) :-
    R #= -1.   % line 5

sign_join5([],[R],H0,Hout,E,sign_join5(1,[T1])) :-
    sign_join2([],[R],H0,Hout,E,T1).
