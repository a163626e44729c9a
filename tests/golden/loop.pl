% ---- count

count([N],[R],H0,Hout,E,count(1,[T1])) :-
    I #= 0,
    count_loop2([N,I],[R],H0,Hout,E,T1).   % lines 2, 3

count_loop2([N,I],[R],H0,Hout,E,count_loop2(1,[T1])) :-
    I #< N,
    count_body3([N,I],[R],H0,Hout,E,T1).
count_loop2([N,I],[R],H0,Hout,E,count_loop2(2,[T1])) :-
    I #>= N,
    count_exit4([I],[R],H0,Hout,E,T1).

% one iteration of count_loop1
count_body3([N,I],[R],H0,Hout,E,count_body3(1,[T1])) :-
    I1 #= (I + 1),
    count_loop2([N,I1],[R],H0,Hout,E,T1).   % lines 4, 3

count_exit4([I],[R],H0,H0,ok,count_exit4(1,[])) :-
    R #= I.   % line 5
